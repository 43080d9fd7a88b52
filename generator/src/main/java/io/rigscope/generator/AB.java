package io.rigscope.generator;

/**
 * Temporary: which of the request-cost changes of issue 25 are on in this JVM ({@code -Drigscope.gen.ab=base},
 * {@code headers}, {@code headers+queue}; default: all), so that one build measures them side by side.
 */
public final class AB {
    private static final String MODE = System.getProperty("rigscope.gen.ab", "headers+queue");

    private AB() {
    }

    public static boolean headers() {
        return MODE.contains("headers");
    }

    public static boolean queue() {
        return MODE.contains("queue");
    }
}
