package io.rigscope.collectors.process;

/** A child JVM for {@link ProcessCollectorTest}: keeps one thread busy and allocates, until killed. */
public final class SpinningChild {

    private SpinningChild() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("spinning");
        System.out.flush();
        long sink = 0;
        while (true) {
            byte[] garbage = new byte[64 * 1024];
            sink += garbage.length;
            if ((sink & 0xFFFFFFL) == 0) {
                Thread.sleep(1);
            }
        }
    }
}
