package io.rigscope.collectors.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.collectors.CollectorContext;
import io.rigscope.model.wire.ProcessMetrics;
import io.rigscope.model.wire.WireRecord;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;

/** The process collector against a real child JVM on this host, stopped with SIGSTOP once. */
@Tag("it")
class ProcessCollectorTest {

    private Process child;

    @AfterEach
    void killChild() throws InterruptedException {
        if (child != null) {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aRunningJvmShowsItsCpuThreadsRssAndGcAndASigstopShowsAsStoppedTime() throws Exception {
        child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m",
                "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), SpinningChild.class.getName())
                .redirectErrorStream(true).start();
        var out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("spinning");
        long pid = child.pid();
        ProcessCollector collector = new ProcessCollector(new ProcessCollector.Config(pid, null, null, null),
                CollectorContext.of("proc-test"));

        Flux<ProcessMetrics> records = collector.records().ofType(ProcessMetrics.class).take(5);
        // the stop as it happened: on a busy host the timer that sends SIGCONT fires late, so 600 ms is a lower bound
        // and each signal is a kill(1) child, which takes a while to start: the stop lasted at least from the STOP's
        // return to the CONT's start, at most from the STOP's start to the CONT's return
        java.util.concurrent.atomic.AtomicLongArray ns = new java.util.concurrent.atomic.AtomicLongArray(4);
        var stopper = reactor.core.publisher.Mono.delay(Duration.ofMillis(2300))
                .doOnNext(t -> {
                    ns.set(0, System.nanoTime());
                    signal("-STOP", pid);
                    ns.set(1, System.nanoTime());
                })
                .delayElement(Duration.ofMillis(600))
                .doOnNext(t -> {
                    ns.set(2, System.nanoTime());
                    signal("-CONT", pid);
                    ns.set(3, System.nanoTime());
                });
        Disposable stopping = stopper.subscribe();
        List<ProcessMetrics> got;
        try {
            got = records.collectList().block(Duration.ofSeconds(30));
        } finally {
            stopping.dispose();
        }

        assertThat(got).hasSize(5);
        ProcessMetrics first = got.get(0);
        assertThat(first.pid()).isEqualTo(pid);
        assertThat(first.command()).isEqualTo("java");
        assertThat(first.cpuPct()).as("one thread spins (on a shared 2-core machine)").isGreaterThan(5);
        assertThat(first.threads()).isGreaterThan(5);
        assertThat(first.rssBytes()).isGreaterThan(10L << 20);
        assertThat(first.gcPauseMs()).as("a HotSpot JVM's perf counters are read").isNotNull();
        assertThat(first.safepointMs()).isNotNull();
        double stopped = got.stream().mapToDouble(ProcessMetrics::stoppedMs).sum();
        double atLeastMs = (ns.get(2) - ns.get(1)) / 1e6;
        double atMostMs = (ns.get(3) - ns.get(0)) / 1e6;
        assertThat(atLeastMs).as("the stop was sent and ended").isGreaterThanOrEqualTo(600);
        // seen every 100 ms: a look can miss up to one poll at each end
        assertThat(stopped).as("stopped " + atLeastMs + "-" + atMostMs + " ms, seen every 100 ms")
                .isBetween(atLeastMs - 200, atMostMs + 100);
        assertThat(got.stream().mapToDouble(ProcessMetrics::pauseMs).max().orElse(0)).isGreaterThanOrEqualTo(300);
    }

    @Test
    void aProcessThatIsGoneIsAGapNotACrash() {
        ProcessCollector collector = new ProcessCollector(new ProcessCollector.Config(Integer.MAX_VALUE - 7, null,
                null, null), CollectorContext.of("proc-test"));

        List<WireRecord> first = collector.records().take(1).collectList().block(Duration.ofSeconds(10));

        assertThat(first).hasSize(1);
        assertThat(first.get(0)).isNotInstanceOf(ProcessMetrics.class);
    }

    private static void signal(String signal, long pid) {
        try {
            new ProcessBuilder("kill", signal, Long.toString(pid)).start().waitFor(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
