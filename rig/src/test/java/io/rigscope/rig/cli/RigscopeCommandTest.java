package io.rigscope.rig.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

class RigscopeCommandTest {

    /** A paragraph picocli may wrap ends a sentence or a heading; anything else is a hard break mid-sentence. */
    private static boolean endsASentence(String text) {
        String t = text.strip();
        return t.isEmpty() || t.matches("(?s).*[.:!?)\\]]$") || t.endsWith(".'") || t.endsWith(".\"");
    }

    @Test
    void noDescriptionBreaksItsLineMidSentence() {
        List<String> broken = new ArrayList<>();
        walk(RigscopeCommand.commandLine(), broken);
        assertThat(broken).as("description lines that end mid-sentence (let picocli wrap: one string per paragraph)")
                .isEmpty();
    }

    @Test
    void rootHelpKeepsItsFirstSentenceWholeAndFitsAnOrdinaryTerminal() {
        CommandLine cl = RigscopeCommand.commandLine();
        assertThat(cl.getCommandSpec().usageMessage().autoWidth()).as("the terminal's width when it can be found").isTrue();
        assertThat(cl.getSubcommands().get("import").getCommandSpec().usageMessage().autoWidth()).isTrue();
        cl.setUsageHelpAutoWidth(false); // as in a pipe, where no terminal width is found
        String help = cl.getUsageMessage(CommandLine.Help.Ansi.OFF);
        assertThat(help.lines()).anySatisfy(line -> assertThat(line).contains("host and database telemetry"));
        assertThat(help.lines()).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(80));
    }

    @Test
    void onAWideTerminalTheRootDescriptionIsOneLinePerParagraph() {
        CommandLine cl = RigscopeCommand.commandLine();
        cl.setUsageHelpAutoWidth(false);
        cl.setUsageHelpWidth(400);
        String help = cl.getUsageMessage(CommandLine.Help.Ansi.OFF);
        for (String paragraph : cl.getCommandSpec().usageMessage().description()) {
            if (!paragraph.isBlank()) {
                assertThat(help.lines()).anySatisfy(line -> assertThat(line.strip()).isEqualTo(paragraph));
            }
        }
    }

    private static void walk(CommandLine cl, List<String> broken) {
        CommandSpec spec = cl.getCommandSpec();
        check(spec.qualifiedName(), spec.usageMessage().description(), broken);
        for (ArgSpec arg : spec.args()) {
            String name = arg.isOption() ? ((CommandLine.Model.OptionSpec) arg).longestName() : arg.paramLabel();
            check(spec.qualifiedName() + " " + name, arg.description(), broken);
        }
        cl.getSubcommands().values().stream().distinct().forEach(sub -> walk(sub, broken));
    }

    private static void check(String where, String[] lines, List<String> broken) {
        for (int i = 0; i < lines.length - 1; i++) {
            if (!endsASentence(lines[i])) {
                broken.add(where + ": \"" + lines[i] + "\" / \"" + lines[i + 1] + "\"");
            }
        }
    }
}
