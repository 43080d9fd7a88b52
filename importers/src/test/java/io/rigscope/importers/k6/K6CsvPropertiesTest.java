package io.rigscope.importers.k6;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.localenv.testing.Mutations;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Property test of the k6 CSV reader of a rescan (k6 {@code --out csv} rows): a real row with a few characters
 * edited is a point or refused with a reason, never another exception.
 */
class K6CsvPropertiesTest {

    @Provide
    Arbitrary<String> csvRows() {
        return Mutations.of(List.of("http_req_duration,1709632801,2.5,,,,POST,http://h/e,HTTP/1.1,ingest,201,,",
                "http_reqs,2024-03-05T10:00:01.005Z,1,true,,,GET,http://h/p,HTTP/1.1,\"read, probe\",200,,a=b&c=d"), 4);
    }

    @Property(tries = 500)
    void aK6CsvRowIsAPointOrRefusedWithAReason(@ForAll("csvRows") String row) {
        String[] header = {"metric_name", "timestamp", "metric_value", "check", "error", "error_code", "method", "name",
            "proto", "scenario", "status", "tls_version", "extra_tags"};
        try {
            assertThat(K6Files.Csv.point(header, K6Files.Csv.split(row)).path("type").asText()).isEqualTo("Point");
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }
}
