package io.rigscope.localenv.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

// its own clusters, not the shared Postgres fixture: it tests PrivatePostgres itself (start, settings, log, close)
@Tag("it")
class PrivatePostgresTest {

    @Test
    void startsAClusterWithTheCollectorLoggingAndThrowsItAway() throws Exception {
        var pg = PrivatePostgres.startTemporary(PrivatePostgres.Options.defaults().with("autovacuum_naptime", "1"));
        try {
            assertThat(pg.psql("postgres", "select 40 + 2")).isEqualTo("42");
            assertThat(pg.psql("postgres", "show log_checkpoints")).isEqualTo("on");
            assertThat(pg.psql("postgres", "show log_autovacuum_min_duration")).isEqualTo("0");
            assertThat(pg.psql("postgres", "show autovacuum_naptime")).isEqualTo("1s");
            pg.psql("postgres", "checkpoint");
            long deadline = System.currentTimeMillis() + 10_000;
            while (!Files.readString(pg.logFile()).contains("checkpoint complete")
                    && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            assertThat(Files.readString(pg.logFile())).contains("checkpoint complete");
        } finally {
            pg.close();
        }
        assertThat(pg.dataDir()).doesNotExist();
    }

    @Test
    void theEmbeddedBinariesFromMavenCentralAreTheFallbackWithTheSameLogging() throws Exception {
        var pg = PrivatePostgres.startTemporary(PrivatePostgres.Options.defaults().withEmbedded());
        try {
            assertThat(pg.isEmbedded()).isTrue();
            assertThat(pg.psql("postgres", "select 40 + 2")).isEqualTo("42");
            assertThat(pg.psql("postgres", "show log_checkpoints")).isEqualTo("on");
            assertThat(pg.psql("postgres", "show log_autovacuum_min_duration")).isEqualTo("0");
            pg.psql("postgres", "checkpoint");
            long deadline = System.currentTimeMillis() + 10_000;
            while (!(Files.exists(pg.logFile()) && Files.readString(pg.logFile()).contains("checkpoint complete"))
                    && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            assertThat(Files.readString(pg.logFile())).contains("checkpoint complete");
            assertThat(pg.libpqUrl("postgres", "postgres")).contains(":" + pg.port() + "/");
        } finally {
            pg.close();
        }
        assertThat(pg.dataDir()).doesNotExist();
    }

    @Test
    void aClusterOnAVolumeOfItsOwnIsCappedInTheKernelsThrottleAndLeavesNothingBehind() throws Exception {
        Assumptions.assumeTrue(LoopVolume.unavailable().isEmpty(),
                () -> "no loop volume here: " + LoopVolume.unavailable().orElse(""));
        var pg = PrivatePostgres.startTemporary(PrivatePostgres.Options.defaults().withOwnVolume(1L << 30));
        Path throttle = Path.of("/sys/fs/cgroup/blkio/blkio.throttle.write_bps_device");
        String device;
        String majorMinor;
        Path image;
        try {
            LoopVolume volume = pg.volume().orElseThrow();
            String mount = volume.mountPoint().toString();
            String mountLine = Files.readAllLines(Path.of("/proc/mounts")).stream()
                    .filter(l -> l.split(" ")[1].equals(mount)).findFirst().orElseThrow();
            assertThat(mountLine).startsWith("/dev/loop").contains(" ext4 ");
            assertThat(pg.dataDir()).startsWith(volume.mountPoint());
            assertThat(pg.psql("postgres", "select current_setting('data_directory')"))
                    .isEqualTo(pg.dataDir().toString());
            assertThat(volume.hostDirectory()).isNotEqualTo(volume.mountPoint());
            image = volume.hostDirectory().resolve("volume.img");
            assertThat(image).exists();
            device = mountLine.split(" ")[0];
            majorMinor = Files.readString(Path.of("/sys/class/block/" + device.substring(5) + "/dev")).strip();

            volume.cap(LoopVolume.Spec.gp3Baseline());
            assertThat(Files.readAllLines(throttle)).contains(majorMinor + " " + (125L << 20));
            assertThat(volume.describe()).contains("capped at gp3 baseline (125 MiB/s, 3,000 IOPS)");
            pg.psql("postgres", "create table t as select g from generate_series(1, 10000) g; checkpoint");
            volume.uncap();
            assertThat(Files.readAllLines(throttle)).noneMatch(l -> l.startsWith(majorMinor + " "));
            volume.cap(LoopVolume.Spec.gp3Baseline()); // closing lifts it
        } finally {
            pg.close();
        }
        assertThat(Files.readString(Path.of("/proc/mounts"))).doesNotContain(device + " ");
        assertThat(Files.readAllLines(throttle)).noneMatch(l -> l.startsWith(majorMinor + " "));
        Process losetup = new ProcessBuilder("losetup", "-a").redirectErrorStream(true).start();
        assertThat(new String(losetup.getInputStream().readAllBytes())).doesNotContain(image.toString());
        assertThat(image).doesNotExist();
        assertThat(pg.dataDir()).doesNotExist();
    }
}
