package io.rigscope.rig.cloud;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * The series file's {@code cloud:} section, validated ({@link CloudSection} reads it). Keys and rules are in
 * docs/cloud.md.
 *
 * @param series the series id (the file's {@code series}), which names the stack and every tag
 * @param region the AWS region, e.g. {@code ap-south-1}
 * @param availabilityZone the one AZ every node and the database run in, e.g. {@code ap-south-1a}
 * @param secondAvailabilityZone the AZ the DB subnet group's second subnet is in (RDS needs two; nothing runs there)
 * @param lifetime how long after {@code cloud up} the rig deletes itself
 * @param database the RDS instance
 * @param app the app node: a container image, or null for the reference SUT
 * @param appInstanceType the app node's instance type (the load nodes' when {@code app} is absent)
 * @param load the load nodes
 */
public record CloudSpec(String series, String region, String availabilityZone, String secondAvailabilityZone,
                        Duration lifetime, Database database, App app, String appInstanceType, Load load) {

    public CloudSpec {
        Objects.requireNonNull(series, "series");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(availabilityZone, "availabilityZone");
        Objects.requireNonNull(secondAvailabilityZone, "secondAvailabilityZone");
        Objects.requireNonNull(lifetime, "lifetime");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(appInstanceType, "appInstanceType");
        Objects.requireNonNull(load, "load");
    }

    /**
     * The RDS instance.
     *
     * @param instanceClass e.g. {@code db.m7g.4xlarge}
     * @param engineVersion PostgreSQL's version as RDS takes it, e.g. {@code 16} or {@code 16.4}
     * @param storage the volume
     * @param parameters the user's parameter group settings (name to value, as RDS takes them)
     */
    public record Database(String instanceClass, String engineVersion, Storage storage, Map<String, String> parameters) {
        public Database {
            Objects.requireNonNull(instanceClass, "instanceClass");
            Objects.requireNonNull(engineVersion, "engineVersion");
            Objects.requireNonNull(storage, "storage");
            parameters = Map.copyOf(parameters);
        }

        /** The engine's major version: {@code 16} of {@code 16.4}. */
        public int majorVersion() {
            return Integer.parseInt(engineVersion.split("\\.")[0]);
        }
    }

    /**
     * The database's volume.
     *
     * @param type {@code gp2}, {@code gp3}, {@code io1} or {@code io2}
     * @param sizeGb allocated storage in GiB
     * @param iops provisioned IOPS, or null (the type's baseline)
     * @param throughputMibps provisioned throughput in MiB/s (gp3 only), or null (the baseline)
     */
    public record Storage(String type, int sizeGb, Integer iops, Integer throughputMibps) {
        /** Below this size RDS gp3 has a fixed baseline (3,000 IOPS, 125 MiB/s) that cannot be provisioned. */
        public static final int GP3_PROVISIONABLE_FROM_GB = 400;

        public Storage {
            Objects.requireNonNull(type, "type");
        }

        /** The IOPS the volume's price includes (billed IOPS are those above it; io1/io2 include none). */
        public int includedIops() {
            return switch (type) {
                case "gp3" -> sizeGb < GP3_PROVISIONABLE_FROM_GB ? 3000 : 12000;
                default -> 0;
            };
        }

        /** The throughput the volume's price includes, MiB/s (gp3 only). */
        public int includedThroughputMibps() {
            return "gp3".equals(type) ? (sizeGb < GP3_PROVISIONABLE_FROM_GB ? 125 : 500) : 0;
        }
    }

    /**
     * The app node's service as a container.
     *
     * @param image the image reference ({@code REGISTRY/IMAGE:TAG}), or null for the reference SUT
     * @param port the port the service listens on
     * @param env the container's environment
     */
    public record App(String image, int port, Map<String, String> env) {
        /** The port when {@code app.port} is not given (the reference SUT's too). */
        public static final int DEFAULT_PORT = 8080;

        public App {
            env = Map.copyOf(env);
        }
    }

    /**
     * The load nodes.
     *
     * @param instanceType e.g. {@code c7g.2xlarge}
     * @param count how many (node 1 also runs the embedded broker)
     */
    public record Load(String instanceType, int count) {
        public Load {
            Objects.requireNonNull(instanceType, "instanceType");
            if (count < 1) {
                throw new IllegalArgumentException("count must be >= 1, was " + count);
            }
        }
    }

    /** The port the app node's service answers on ({@code app.port}, default {@value App#DEFAULT_PORT}). */
    public int appPort() {
        return app == null ? App.DEFAULT_PORT : app.port();
    }

    /** The stack's name: {@code rigscope-SERIES} (CloudFormation's and RDS's character rules met). */
    public String stackName() {
        return CloudNames.stackName(series);
    }
}
