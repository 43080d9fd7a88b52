package io.rigscope.rig.cloud.template;

import io.rigscope.rig.cloud.CloudSection;
import java.util.Map;

/**
 * The nodes' user data (a {@code Fn::Sub} text): Java 17, the PostgreSQL client with pgbench, and rigscope's jar from
 * the stack's evidence bucket ({@link StackTemplate#JAR_KEY}, put there by {@code cloud up} once the bucket exists,
 * so the script waits for it). The app node then starts the service: the image, or the reference SUT on the RDS
 * instance. Shell variables are written {@code $NAME}, never {@code ${NAME}}, which {@code Fn::Sub} would take.
 */
final class NodeUserData {

    private NodeUserData() {
    }

    /** Every node's common part. */
    private static String base(CloudSection.Spec spec, String extraPackages) {
        int pg = spec.database().majorVersion();
        return "#!/bin/bash\n"
                + "# rigscope node (rigscope cloud plan): Java 17, psql and pgbench, rigscope from the stack's bucket\n"
                + "set -euo pipefail\n"
                + "dnf install -y java-17-amazon-corretto-headless postgresql" + pg + " postgresql" + pg + "-contrib"
                + extraPackages + "\n"
                + "mkdir -p /opt/rigscope\n"
                + "for attempt in $(seq 1 180); do\n"
                + "  aws s3 cp --region ${AWS::Region} s3://${EvidenceBucket}/" + StackTemplate.JAR_KEY
                + " /opt/rigscope/rigscope.jar && break\n"
                + "  sleep 10\n"
                + "done\n"
                + "test -s /opt/rigscope/rigscope.jar\n"
                + "printf '#!/bin/sh\\nexec java -jar /opt/rigscope/rigscope.jar \"$@\"\\n' > /usr/local/bin/rigscope\n"
                + "chmod 755 /usr/local/bin/rigscope\n"
                + "PGPASSWORD_RAW=$(aws secretsmanager get-secret-value --region ${AWS::Region} "
                + "--secret-id '${Database.MasterUserSecret.SecretArn}' --query SecretString --output text "
                + "| python3 -c 'import json,sys; print(json.load(sys.stdin)[\"password\"])')\n"
                + "PGPASSWORD_URL=$(printf '%s' \"$PGPASSWORD_RAW\" "
                + "| python3 -c 'import sys,urllib.parse; print(urllib.parse.quote(sys.stdin.read(), safe=\"\"))')\n"
                + "PG_URL=\"postgresql://" + StackTemplate.MASTER_USER + ":$PGPASSWORD_URL@${Database.Endpoint.Address}:"
                + "${Database.Endpoint.Port}/" + StackTemplate.DATABASE_NAME + "\"\n"
                + "printf 'RIGSCOPE_PG=%s\\n' \"$PG_URL\" > /opt/rigscope/pg.env\n"
                + "chmod 600 /opt/rigscope/pg.env\n";
    }

    /** A load node: the common part only ({@code cloud run} starts the series through SSM). */
    static String load(CloudSection.Spec spec) {
        return base(spec, "") + "touch /opt/rigscope/ready\n";
    }

    /** The app node: the common part, then the service. */
    static String app(CloudSection.Spec spec) {
        CloudSection.Spec.App app = spec.app();
        if (app == null || app.image() == null) {
            return base(spec, "") + "systemd-run --unit rigscope-sut --property=EnvironmentFile=/opt/rigscope/pg.env "
                    + "/usr/local/bin/rigscope sut --migrate --bind 0.0.0.0 --port " + spec.appPort() + "\n"
                    + "touch /opt/rigscope/ready\n";
        }
        StringBuilder run = new StringBuilder("docker run -d --restart always --name rigscope-app -p ")
                .append(app.port()).append(':').append(app.port())
                .append(" -e PGHOST=${Database.Endpoint.Address} -e PGPORT=${Database.Endpoint.Port}")
                .append(" -e PGUSER=").append(StackTemplate.MASTER_USER)
                .append(" -e PGDATABASE=").append(StackTemplate.DATABASE_NAME)
                .append(" -e PGPASSWORD=\"$PGPASSWORD_RAW\"");
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(app.env()).entrySet()) {
            run.append(" -e ").append(e.getKey()).append('=').append(shellQuote(Cfn.subLiteral(e.getValue())));
        }
        run.append(' ').append(shellQuote(Cfn.subLiteral(app.image())));
        return base(spec, " docker") + "systemctl enable --now docker\n" + run + "\n" + "touch /opt/rigscope/ready\n";
    }

    private static String shellQuote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
