package io.rigscope.rig.cloud;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import io.rigscope.rig.options.Durations;
import io.rigscope.rig.options.UsageException;
import io.rigscope.rig.plan.ScenarioSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.Locale;
import java.util.Objects;

/**
 * Reads a series file's {@code cloud:} section into a {@link Spec}. Keys are snake_case and bound by
 * {@link ScenarioSpec.Yaml} (an unknown key is refused naming its path); every value is checked here, and a bad one is a
 * {@link UsageException} naming the file and the key's path ({@code cloud.database.storage.iops}).
 */
public final class CloudSection {

    /** The lifetime when {@code cloud.lifetime} is not given. */
    public static final Duration DEFAULT_LIFETIME = Duration.ofHours(4);
    /** Settings rigscope sets in the parameter group itself (its log collector and rules read them). */
    public static final Map<String, String> RIG_PARAMETERS = Map.of(
            "log_autovacuum_min_duration", "0",
            "log_checkpoints", "1");

    private static final Pattern REGION = Pattern.compile("[a-z]{2}(-[a-z]+)+-\\d+");
    private static final Pattern INSTANCE_TYPE = Pattern.compile("[a-z][a-z0-9-]*\\.[a-z0-9]+");
    private static final Pattern DB_CLASS = Pattern.compile("db\\.[a-z0-9-]+\\.[a-z0-9]+");
    private static final Pattern ENGINE_VERSION = Pattern.compile("\\d{2,}(\\.\\d+)*");
    private static final Pattern PARAMETER = Pattern.compile("[a-z][a-z0-9_.]*");
    private static final Set<String> STORAGE_TYPES = Set.of("gp2", "gp3", "io1", "io2");

    private record Cloud(String region, String availabilityZone, String lifetime, Db database, AppKeys app,
                         LoadKeys load) {
    }

    private record Db(@JsonProperty("class") String instanceClass, String engineVersion, StorageKeys storage,
                      Map<String, JsonNode> parameters) {
    }

    private record StorageKeys(String type, Integer gb, Integer iops, Integer throughputMibps) {
    }

    private record AppKeys(String instanceType, String image, Integer port, Map<String, JsonNode> env) {
    }

    private record LoadKeys(String instanceType, Integer count) {
    }

    private final String file;

    private CloudSection(String file) {
        this.file = file;
    }

    /**
     * The {@code cloud:} section of the series file at {@code path}.
     *
     * @param seriesOverride the series id from the command line, or null (then the file's {@code series})
     * @throws UsageException when the section is missing or a key or value is wrong
     */
    public static Spec read(Path path, String seriesOverride) {
        JsonNode root = ScenarioSpec.Yaml.readFile(path);
        return new CloudSection(path.toString()).spec(root, seriesOverride);
    }

    /** The same, for a file given as text ({@code source} names it in messages). */
    public static Spec read(String source, String yaml, String seriesOverride) {
        return new CloudSection(source).spec(ScenarioSpec.Yaml.readText(source, yaml), seriesOverride);
    }

    private Spec spec(JsonNode root, String seriesOverride) {
        JsonNode cloudNode = root.get("cloud");
        if (cloudNode == null || cloudNode.isNull()) {
            throw new UsageException(file + ": cloud is missing: `cloud plan` needs a cloud: section (region, "
                    + "availability_zone, lifetime, database, app, load; see docs/cloud.md)");
        }
        JsonNode seriesNode = root.get("series");
        String series = seriesOverride != null ? seriesOverride
                : seriesNode != null && seriesNode.isTextual() && !seriesNode.asText().isBlank() ? seriesNode.asText()
                : null;
        if (series == null) {
            throw new UsageException(file + ": series is missing: the stack and every tag are named after it "
                    + "(or give --series)");
        }
        if (!cloudNode.isObject()) {
            throw fail("cloud", "must be a mapping");
        }
        Cloud c = ScenarioSpec.Yaml.bind(cloudNode, Cloud.class, file, "cloud");
        String region = required(c.region(), "cloud.region", "e.g. ap-south-1");
        if (!REGION.matcher(region).matches()) {
            throw fail("cloud.region", "'" + region + "' is not an AWS region name, e.g. ap-south-1");
        }
        String az = required(c.availabilityZone(), "cloud.availability_zone", "e.g. " + region + "a");
        if (!az.matches(Pattern.quote(region) + "[a-z]")) {
            throw fail("cloud.availability_zone", "'" + az + "' is not a zone of " + region + ", e.g. " + region + "a");
        }
        Duration lifetime = c.lifetime() == null ? DEFAULT_LIFETIME : duration(c.lifetime(), "cloud.lifetime");
        if (lifetime.compareTo(Duration.ofMinutes(15)) < 0 || lifetime.compareTo(Duration.ofDays(7)) > 0) {
            throw fail("cloud.lifetime", "must be between 15m and 168h, was " + c.lifetime());
        }
        Spec.Database database = database(c.database());
        LoadKeys lk = c.load();
        if (lk == null) {
            throw fail("cloud.load", "is missing: the load nodes ({instance_type: c7g.2xlarge, count: 1})");
        }
        String loadType = instanceType(lk.instanceType(), "cloud.load.instance_type");
        int count = lk.count() == null ? 1 : lk.count();
        if (count < 1 || count > 10) {
            throw fail("cloud.load.count", "must be 1 to 10, was " + count + " (the template must stay under "
                    + "CloudFormation's 51,200-byte limit for a template body)");
        }
        AppKeys ak = c.app();
        Spec.App app = null;
        String appType = loadType;
        if (ak != null) {
            appType = ak.instanceType() == null ? loadType : instanceType(ak.instanceType(), "cloud.app.instance_type");
            int port = ak.port() == null ? Spec.App.DEFAULT_PORT : ak.port();
            if (port < 1 || port > 65535) {
                throw fail("cloud.app.port", "must be a TCP port (1-65535), was " + port);
            }
            if (ak.image() != null && ak.image().isBlank()) {
                throw fail("cloud.app.image", "must be an image reference, e.g. registry.example.com/orders:1.4");
            }
            if (ak.image() == null && ak.env() != null && !ak.env().isEmpty()) {
                throw fail("cloud.app.env", "needs cloud.app.image: the environment is the container's");
            }
            app = new Spec.App(ak.image(), port, scalars(ak.env(), "cloud.app.env", Pattern.compile("[A-Za-z_][A-Za-z0-9_]*")));
        }
        String second = az.endsWith("a") ? region + "b" : region + "a";
        return new Spec(series, region, az, second, lifetime, database, app, appType,
                new Spec.Load(loadType, count));
    }

    private Spec.Database database(Db d) {
        if (d == null) {
            throw fail("cloud.database", "is missing: the RDS instance ({class: db.m7g.large, engine_version: \"16\", "
                    + "storage: {type: gp3, gb: 100}})");
        }
        String cls = required(d.instanceClass(), "cloud.database.class", "e.g. db.m7g.4xlarge");
        if (!DB_CLASS.matcher(cls).matches()) {
            throw fail("cloud.database.class", "'" + cls + "' is not an RDS instance class, e.g. db.m7g.4xlarge");
        }
        String version = required(d.engineVersion(), "cloud.database.engine_version", "e.g. \"16\"");
        if (!ENGINE_VERSION.matcher(version).matches() || Integer.parseInt(version.split("\\.")[0]) < 11) {
            throw fail("cloud.database.engine_version", "'" + version + "' is not a PostgreSQL version RDS runs, "
                    + "e.g. \"16\" or \"16.4\"");
        }
        StorageKeys s = d.storage();
        if (s == null) {
            throw fail("cloud.database.storage", "is missing, e.g. {type: gp3, gb: 100}");
        }
        String type = s.type() == null ? "gp3" : s.type();
        if (!STORAGE_TYPES.contains(type)) {
            throw fail("cloud.database.storage.type", "'" + type + "' is not one of " + new java.util.TreeSet<>(STORAGE_TYPES));
        }
        if (s.gb() == null) {
            throw fail("cloud.database.storage.gb", "is missing (GiB, 20 to 65536)");
        }
        int gb = s.gb();
        if (gb < 20 || gb > 65536) {
            throw fail("cloud.database.storage.gb", "must be 20 to 65536 GiB, was " + gb);
        }
        Integer iops = s.iops();
        Integer throughput = s.throughputMibps();
        String at = "cloud.database.storage.";
        switch (type) {
            case "gp2" -> {
                if (iops != null) {
                    throw fail(at + "iops", "cannot be set for gp2 (its IOPS follow its size); use gp3 or io1/io2");
                }
                if (throughput != null) {
                    throw fail(at + "throughput_mibps", "cannot be set for gp2; use gp3");
                }
            }
            case "gp3" -> {
                if (gb < Spec.Storage.GP3_PROVISIONABLE_FROM_GB) {
                    if (iops != null && iops != 3000) {
                        throw fail(at + "iops", "cannot be provisioned below 400 GiB of gp3 (RDS fixes 3000); was "
                                + iops + ": leave it out or give gb: 400 or more");
                    }
                    if (throughput != null && throughput != 125) {
                        throw fail(at + "throughput_mibps", "cannot be provisioned below 400 GiB of gp3 (RDS fixes "
                                + "125); was " + throughput + ": leave it out or give gb: 400 or more");
                    }
                    iops = null;
                    throughput = null;
                } else {
                    if (iops != null && (iops < 12000 || iops > 64000)) {
                        throw fail(at + "iops", "must be 12000 to 64000 for gp3 of 400 GiB or more, was " + iops);
                    }
                    if (throughput != null && (throughput < 500 || throughput > 4000)) {
                        throw fail(at + "throughput_mibps", "must be 500 to 4000 for gp3 of 400 GiB or more, was "
                                + throughput);
                    }
                }
            }
            default -> { // io1, io2
                if (iops == null) {
                    throw fail(at + "iops", "is missing: " + type + " needs provisioned IOPS (1000 to 256000)");
                }
                if (iops < 1000 || iops > 256000) {
                    throw fail(at + "iops", "must be 1000 to 256000 for " + type + ", was " + iops);
                }
                if (throughput != null) {
                    throw fail(at + "throughput_mibps", "cannot be set for " + type + " (only gp3 takes it)");
                }
            }
        }
        Map<String, String> parameters = scalars(d.parameters(), "cloud.database.parameters", PARAMETER);
        for (String key : parameters.keySet()) {
            if (RIG_PARAMETERS.containsKey(key)) {
                throw fail("cloud.database.parameters." + key, "is set by rigscope (" + RIG_PARAMETERS.get(key)
                        + "): its log collector reads what it logs; leave it out");
            }
        }
        return new Spec.Database(cls, version, new Spec.Storage(type, gb, iops, throughput), parameters);
    }

    private Map<String, String> scalars(Map<String, JsonNode> map, String at, Pattern keyShape) {
        Map<String, String> out = new LinkedHashMap<>();
        if (map == null) {
            return out;
        }
        map.forEach((k, v) -> {
            if (!keyShape.matcher(k).matches()) {
                throw fail(at + "." + k, "is not a valid name here");
            }
            if (v == null || v.isNull() || !v.isValueNode()) {
                throw fail(at + "." + k, "must be a single value (a string, number or true/false)");
            }
            out.put(k, v.asText());
        });
        return out;
    }

    private String instanceType(String v, String key) {
        String t = required(v, key, "e.g. c7g.2xlarge");
        if (!INSTANCE_TYPE.matcher(t).matches() || t.startsWith("db.")) {
            throw fail(key, "'" + t + "' is not an EC2 instance type, e.g. c7g.2xlarge");
        }
        return t;
    }

    private String required(String v, String key, String example) {
        if (v == null || v.isBlank()) {
            throw fail(key, "is missing (" + example + ")");
        }
        return v.strip();
    }

    private Duration duration(String v, String key) {
        try {
            return Durations.parse(key, v);
        } catch (UsageException e) {
            throw new UsageException(file + ": " + e.getMessage());
        }
    }

    private UsageException fail(String key, String problem) {
        return new UsageException(file + ": " + key + " " + problem);
    }

    /** Names and tag keys every cloud resource of a series shares. */
    public static final class Names {

        /** The series a resource belongs to. */
        public static final String TAG_SERIES = "rigscope:series";
        /** Who stood it up. */
        public static final String TAG_OWNER = "rigscope:owner";
        /** When it deletes itself (ISO-8601 UTC); {@code cloud extend} moves it. */
        public static final String TAG_EXPIRES_AT = "rigscope:expires-at";
        /** {@code evidence} on the evidence bucket: kept after teardown on purpose. */
        public static final String TAG_ROLE = "rigscope:role";
        /** The value of {@link #TAG_ROLE} on the evidence bucket. */
        public static final String ROLE_EVIDENCE = "evidence";

        private Names() {
        }

        /**
         * {@code rigscope-SERIES}, lower-cased, every run of characters outside {@code [a-z0-9]} one hyphen, at most 50
         * characters: a valid stack name, RDS instance identifier and schedule name.
         */
        public static String stackName(String series) {
            String s = series.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
            String name = "rigscope-" + (s.isEmpty() ? "series" : s);
            name = name.length() > 50 ? name.substring(0, 50) : name;
            return name.replaceAll("-+$", "");
        }

        /** The one-time schedule that deletes the stack at expiry (outside the stack). */
        public static String scheduleName(String series) {
            return stackName(series) + "-expiry";
        }

        /** The role the schedule assumes to delete the stack. */
        public static String expiryRoleName(String series) {
            return stackName(series) + "-expiry";
        }
    }

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
    public record Spec(String series, String region, String availabilityZone, String secondAvailabilityZone,
                            Duration lifetime, Database database, App app, String appInstanceType, Load load) {

        public Spec {
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
            return Names.stackName(series);
        }
    }
}
