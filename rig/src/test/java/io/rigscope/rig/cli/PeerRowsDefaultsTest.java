package io.rigscope.rig.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.benchmarks.peers.PeerRows;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The bench's rigscope defaults row uses {@code generate}'s own in-flight cap (the command is package-private). */
class PeerRowsDefaultsTest {

    @Test
    void theDefaultsRowsCapIsGeneratesDefault() {
        CommandLine.Model.OptionSpec cap = new CommandLine(new GenerateCommand()).getCommandSpec()
                .findOption("--max-in-flight");
        assertThat(cap.defaultValue()).isEqualTo(Integer.toString(PeerRows.GENERATE_MAX_IN_FLIGHT));
    }
}
