package io.rigscope.rig;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.rig.cli.ExitCodes;
import io.rigscope.rig.cli.RigscopeCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CommandLineTest {

    private record Result(int exit, String out, String err) {
    }

    private static Result run(String... args) {
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            CommandLine cl = RigscopeCommand.commandLine();
            cl.setOut(new PrintWriter(System.out, true));
            cl.setErr(new PrintWriter(System.err, true));
            int exit = cl.execute(args);
            return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Test
    void helpListsTheSubcommands() {
        Result r = run("--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("topics", "tail");
    }

    @Test
    void anUnknownFlagExitsTwoAndSaysWhich() {
        Result r = run("topics", "--no-such-flag");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--no-such-flag");
    }

    @Test
    void aBadBootstrapExitsTwoNamingTheFlag() {
        Result r = run("topics", "--bootstrap", "not a host");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--bootstrap 'not a host'");
    }

    @Test
    void anUnknownTopicExitsTwoListingTheTopics(@TempDir Path dir) {
        Result r = run("tail", "rig.nope", "--data-dir", dir.toString());
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("unknown topic 'rig.nope'", "rig.samples");
    }

    @Test
    void topicsOnAFreshDataDirectoryStartsTheBrokerCreatesAndListsEveryTopic(@TempDir Path dir) {
        Result r = run("topics", "--data-dir", dir.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("created 13 topic(s)");
        for (var topic : io.rigscope.model.topic.Topic.values()) {
            assertThat(r.out()).contains(topic.topicName());
        }
        Result again = run("topics", "--data-dir", dir.toString());
        assertThat(again.out()).doesNotContain("created").contains("rig.verdicts");
    }

    @Test
    void aSeriesFileWithAnUnknownKeyExitsTwoNamingFileAndKey(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("bad.yaml");
        java.nio.file.Files.writeString(config, "target: {url: 'http://127.0.0.1:1'}\nsustained: {rate: 5, repets: 2}\n");
        Result r = run("run", "--config", config.toString(), "--data-dir", dir.resolve("k").toString());
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("bad.yaml: sustained.repets is not a known key here");
    }

    @Test
    void aMissingSeriesFileExitsTwo(@TempDir Path dir) {
        Result r = run("run", "--config", dir.resolve("nope.yaml").toString());
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("nope.yaml: no such file");
    }

    @Test
    void anUnknownWallExitsTwo() {
        Result r = run("demo", "--provoke", "cosmic-rays");
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--provoke 'cosmic-rays' is not a wall this demo knows; one of: hot-row");
    }
}
