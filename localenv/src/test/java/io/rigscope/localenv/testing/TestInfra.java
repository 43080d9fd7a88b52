package io.rigscope.localenv.testing;

import java.util.Locale;
import org.testcontainers.DockerClientFactory;

/**
 * Where the test fixtures get their real parts: {@code embedded} (the default: the embedded KRaft broker in the test
 * JVM, private PostgreSQL clusters from the local binaries) or {@code containers} (Testcontainers' images, where a
 * Docker engine answers). Chosen with the system property {@code rigscope.test.infra} or the environment variable
 * {@code RIGSCOPE_TEST_INFRA}; asked for containers on a machine without a Docker engine, the fixtures say so once
 * on stderr and use the embedded parts.
 */
public final class TestInfra {

    private static volatile Boolean containers;

    private TestInfra() {
    }

    /** What was asked for: {@code embedded} or {@code containers}. */
    public static String requested() {
        String v = System.getProperty("rigscope.test.infra", System.getenv("RIGSCOPE_TEST_INFRA"));
        v = v == null || v.isBlank() ? "embedded" : v.strip().toLowerCase(Locale.ROOT);
        if (!v.equals("embedded") && !v.equals("containers")) {
            throw new IllegalStateException("rigscope.test.infra / RIGSCOPE_TEST_INFRA is '" + v
                    + "': expected embedded or containers");
        }
        return v;
    }

    /** True when the fixtures run on containers: asked for, and a Docker engine answers. */
    public static boolean containers() {
        Boolean now = containers;
        if (now == null) {
            boolean asked = requested().equals("containers");
            boolean docker = asked && DockerClientFactory.instance().isDockerAvailable();
            if (asked && !docker) {
                System.err.println("rigscope tests: containers asked for, but no Docker engine answers: the "
                        + "embedded broker and private PostgreSQL clusters are used");
            }
            now = asked && docker;
            containers = now;
        }
        return now;
    }
}
