package io.rigscope.rig.cli;

import static io.rigscope.rig.cli.RigscopeRun.rigscope;
import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.localenv.kafka.DetachedBroker;
import io.rigscope.rig.options.ExitCodes;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("it")
class BrokerCommandTest {

    @TempDir
    Path dir;

    @AfterEach
    void noBrokerOutlivesTheTest() {
        DetachedBroker.stop(dir, Duration.ofSeconds(30));
    }

    @Test
    void startStatusAndStopSayWhereTheBrokerRunsWhoHoldsItAndHowItEnds() {
        RigscopeRun start = rigscope("broker", "start", "--data-dir", dir.toString(), "--broker-idle-stop", "90s");
        assertThat(start.exit()).as(start.err()).isZero();
        assertThat(start.out()).startsWith("broker: started at 127.0.0.1:")
                .contains("data " + dir + ")", "it stops itself 1m30s after the last command using it ends, or "
                        + "'rigscope broker stop'", "(log " + dir.resolve("broker.log") + ")");
        long pid = DetachedBroker.find(dir).orElseThrow().pid();

        RigscopeRun again = rigscope("broker", "start", "--data-dir", dir.toString());
        assertThat(again.out()).startsWith("broker: already running at ").contains("(pid " + pid + ",");

        RigscopeRun status = rigscope("broker", "status", "--data-dir", dir.toString());
        assertThat(status.exit()).isZero();
        assertThat(status.out()).contains("broker: running at 127.0.0.1:", "(pid " + pid + ", data " + dir + ")",
                "leases: none", "of 1m30s; stops itself in ", "log: " + dir.resolve("broker.log"));

        RigscopeRun stop = rigscope("broker", "stop", "--data-dir", dir.toString());
        assertThat(stop.out()).contains("broker: stopped (pid " + pid + ", data " + dir + ")");
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();

        RigscopeRun none = rigscope("broker", "status", "--data-dir", dir.toString());
        assertThat(none.exit()).isEqualTo(1);
        assertThat(none.out()).contains("broker: none running on " + dir);
    }

    @Test
    void aZeroIdleStopExitsTwoNamingTheFlag() {
        RigscopeRun r = rigscope("broker", "start", "--data-dir", dir.toString(), "--broker-idle-stop", "0");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--broker-idle-stop must be longer than 0");
    }
}
