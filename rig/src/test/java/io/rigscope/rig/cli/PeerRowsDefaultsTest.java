package io.rigscope.rig.cli;

import static org.assertj.core.api.Assertions.assertThat;

import picocli.CommandLine;
import org.junit.jupiter.api.Test;

/**
 * {@code generate}'s in-flight cap and client loops have no fixed default: without the flags they follow the plan's
 * rate ({@code DefaultSizing}), as the bench's rigscope defaults row does at each step (the command is
 * package-private; the row's side: benchmarks.peers.PeerRowsTest).
 */
class PeerRowsDefaultsTest {

    @Test
    void generatesCapAndLoopsHaveNoFixedDefaultSoTheRuleApplies() {
        CommandLine.Model.CommandSpec spec = new CommandLine(new GenerateCommand()).getCommandSpec();
        assertThat(spec.findOption("--max-in-flight").defaultValue()).isNull();
        assertThat(spec.findOption("--io-threads").defaultValue()).isNull();
    }
}
