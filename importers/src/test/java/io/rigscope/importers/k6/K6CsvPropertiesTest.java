package io.rigscope.importers.k6;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.localenv.testing.Mutations;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Property test of the k6 CSV reader of a rescan (k6 {@code --out csv} rows through {@link K6Files}): a real row
 * with a few characters edited is a point or refused with a reason, never an exception.
 */
class K6CsvPropertiesTest {

    private static final String HEADER = "metric_name,timestamp,metric_value,check,error,error_code,method,name,proto,"
            + "scenario,status,tls_version,extra_tags";

    private static Path dir;

    @BeforeContainer
    static void workDirectory() throws IOException {
        dir = Files.createTempDirectory("rigscope-k6-csv-props-");
    }

    @AfterContainer
    static void removeFiles() throws IOException {
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Provide
    Arbitrary<String> csvRows() {
        return Mutations.of(List.of("http_req_duration,1709632801,2.5,,,,POST,http://h/e,HTTP/1.1,ingest,201,,",
                "http_reqs,2024-03-05T10:00:01.005Z,1,true,,,GET,http://h/p,HTTP/1.1,\"read, probe\",200,,a=b&c=d"), 4);
    }

    @Property(tries = 500)
    void aK6CsvRowIsAPointOrRefusedWithAReason(@ForAll("csvRows") String row) throws IOException {
        long[] lines = {0};
        long[] records = {0};
        List<String> reasons = new ArrayList<>();
        K6Files files = new K6Files(List.of(), Map.of(), dir);
        try {
            files.add(new BufferedReader(new StringReader(HEADER + "\n" + row + "\n")), true, new K6Files.Counts() {
                @Override
                public void line() {
                    lines[0]++;
                }

                @Override
                public void record() {
                    records[0]++;
                }

                @Override
                public void bad(long lineNo, String why) {
                    reasons.add(why);
                }

                @Override
                public void note(String text) {
                }
            });
        } finally {
            files.close();
        }
        assertThat(records[0] + reasons.size()).isEqualTo(lines[0] - 1);
        assertThat(reasons).allSatisfy(why -> assertThat(why).isNotBlank());
    }
}
