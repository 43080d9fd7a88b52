package io.rigscope.rig;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md's tables are the map a newcomer reads: its module table names every module the root pom
 * builds, and each "Inside `module`" table names every package of that module's main code, no more and no fewer.
 */
class ArchitectureDocTest {

    private static final Path ROOT = Path.of("..");
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    @Test
    void theModuleTableNamesEveryModuleThePomBuilds() throws IOException {
        Set<String> built = new TreeSet<>();
        Matcher m = Pattern.compile("<module>([^<]+)</module>")
                .matcher(Files.readString(ROOT.resolve("pom.xml")));
        while (m.find()) {
            String module = m.group(1);
            if (!module.equals("peers")) { // the peers' drivers: a profile of their own, built by `./rigscope` on demand
                built.add(module.replace("peers/", "peers-"));
            }
        }
        Set<String> documented = new TreeSet<>();
        for (String row : tableRows(section("## Modules"))) {
            documented.add(firstCode(row).replace("peers/", "peers-"));
        }
        assertThat(documented).as("docs/architecture.md, Modules").isEqualTo(built);
    }

    @ParameterizedTest
    @ValueSource(strings = {"rig", "analyzer", "benchmarks", "importers"})
    void eachInsideTableNamesEveryPackageOfItsModule(String module) throws IOException {
        Path base = ROOT.resolve(module).resolve("src/main/java/io/rigscope");
        Set<String> packages = new TreeSet<>();
        try (Stream<Path> files = Files.walk(base)) {
            files.filter(p -> p.toString().endsWith(".java"))
                    .map(p -> base.relativize(p.getParent()).toString().replace('/', '.'))
                    .forEach(packages::add);
        }
        Set<String> documented = new TreeSet<>();
        for (String row : tableRows(section("## Inside `" + module + "`"))) {
            String first = row.split("\\|")[1];
            Matcher m = CODE.matcher(first);
            String previous = null;
            while (m.find()) {
                String name = m.group(1);
                if (name.startsWith(".") && previous != null) {
                    name = previous.substring(0, previous.lastIndexOf('.')) + name;
                }
                documented.add(name);
                previous = name;
            }
        }
        assertThat(documented).as("docs/architecture.md, Inside `" + module + "`").isEqualTo(packages);
    }

    private static String section(String heading) throws IOException {
        String doc = Files.readString(ROOT.resolve("docs/architecture.md"));
        int start = doc.indexOf("\n" + heading + "\n");
        assertThat(start).as("docs/architecture.md has the section " + heading).isNotNegative();
        int end = doc.indexOf("\n## ", start + heading.length() + 1);
        return doc.substring(start, end < 0 ? doc.length() : end);
    }

    /** The rows of the section's first table, its header and the rule under it left out. */
    private static List<String> tableRows(String section) {
        List<String> rows = new ArrayList<>();
        boolean inTable = false;
        int seen = 0;
        for (String line : section.split("\n")) {
            if (line.startsWith("|")) {
                inTable = true;
                if (++seen > 2) {
                    rows.add(line);
                }
            } else if (inTable) {
                break;
            }
        }
        return rows;
    }

    private static String firstCode(String row) {
        Matcher m = CODE.matcher(row.split("\\|")[1]);
        assertThat(m.find()).as("a name in code quotes in " + row).isTrue();
        return m.group(1);
    }
}
