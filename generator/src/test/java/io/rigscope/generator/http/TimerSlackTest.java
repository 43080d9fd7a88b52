package io.rigscope.generator.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A client loop thread runs with a 1 µs timer slack (Linux), so its timed sleeps end on time. */
class TimerSlackTest {

    @Test
    void aClientLoopThreadRunsWithAOneMicrosecondTimerSlack() throws Exception {
        assumeThat(Files.isSymbolicLink(Path.of("/proc/thread-self"))).as("Linux /proc").isTrue();
        assumeThat(TimerSlack.current()).as("a readable timer slack").isPositive();
        AtomicLong seen = new AtomicLong();
        try (ClientLoops loops = ClientLoops.open(1)) {
            loops.group().submit(() -> seen.set(TimerSlack.current())).get();
        }
        assertThat(seen.get()).isEqualTo(TimerSlack.CLIENT_LOOP_NANOS);
    }

    @Test
    void settingTheSlackChangesOnlyTheCallingThread() throws Exception {
        assumeThat(TimerSlack.current()).as("a readable timer slack").isPositive();
        long mine = TimerSlack.current();
        AtomicLong other = new AtomicLong();
        Thread t = new Thread(() -> {
            TimerSlack.lower(7_000);
            other.set(TimerSlack.current());
        });
        t.start();
        t.join();
        assertThat(other.get()).isEqualTo(7_000);
        assertThat(TimerSlack.current()).isEqualTo(mine);
    }
}
