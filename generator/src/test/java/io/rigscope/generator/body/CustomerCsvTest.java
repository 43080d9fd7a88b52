package io.rigscope.generator.body;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rigscope.generator.plan.CustomerPool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link CustomerPool#fromCsv}: RFC 4180 files read into a pool, and every way a file can be wrong, named. */
class CustomerCsvTest {

    @TempDir
    Path dir;

    private Path file(String text) throws IOException {
        Path f = dir.resolve("customers.csv");
        Files.writeString(f, text, StandardCharsets.UTF_8);
        return f;
    }

    @Test
    void quotedFieldsHoldCommasLineBreaksAndDoubledQuotes() throws IOException {
        Path f = file("\uFEFFid, name ,plan\r\n"
                + "1,\"Acme, Inc.\",free\r\n"
                + "2,\"say \"\"hi\"\"\",pro\n"
                + "\n"
                + "3,\"two\nlines\",pro\r\n"
                + "4,,pro\n"
                + "5,  ,pro\n"
                + "6,plain");

        CustomerPool.FromFile pool = CustomerPool.fromCsv(f, "name");

        assertThat(pool.ids()).containsExactly("Acme, Inc.", "say \"hi\"", "two\nlines", "plain");
        assertThat(CustomerPool.fromCsv(f, "id").ids()).containsExactly("1", "2", "3", "4", "5", "6");
        assertThat(pool.column()).isEqualTo("name");
    }

    @Test
    void itsConfigDataIsTheFileTheColumnAndTheCountNeverTheValues() throws IOException {
        Path f = file("customer\nsecret-1\nsecret-2\n");

        CustomerPool.FromFile pool = CustomerPool.fromCsv(f, "customer");

        assertThat(pool.toMap()).containsExactly(java.util.Map.entry("file", f.toString()),
                java.util.Map.entry("column", "customer"), java.util.Map.entry("count", 2));
        assertThat(pool.toMap().toString()).doesNotContain("secret");
        assertThat(pool.toString()).doesNotContain("secret");
    }

    @Test
    void aMissingFileIsNamed() {
        Path f = dir.resolve("nope.csv");
        assertThatThrownBy(() -> CustomerPool.fromCsv(f, "id"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("customers file " + f + ": no such file");
    }

    @Test
    void aMissingColumnIsNamedWithTheHeadersColumns() throws IOException {
        Path f = file("id,region\n1,eu\n");
        assertThatThrownBy(() -> CustomerPool.fromCsv(f, "customer"))
                .hasMessage("customers file " + f + ": no column 'customer'; the header has [id, region]");
    }

    @Test
    void aColumnWithoutValuesAnEmptyFileAShortRecordAndAnUnclosedQuoteAreNamed() throws IOException {
        Path noValues = file("id,region\n,eu\n  ,eu\n");
        assertThatThrownBy(() -> CustomerPool.fromCsv(noValues, "id"))
                .hasMessage("customers file " + noValues + ": column 'id' holds no values");
        Path empty = file("");
        assertThatThrownBy(() -> CustomerPool.fromCsv(empty, "id")).hasMessageContaining("is empty");
        Path shortRecord = file("region,id\neu,1\nus\n");
        assertThatThrownBy(() -> CustomerPool.fromCsv(shortRecord, "id"))
                .hasMessage("customers file " + shortRecord + ": line 3 has 1 field(s); column 'id' is field 2");
        Path unclosed = file("id\n1\n\"2\n3\n");
        assertThatThrownBy(() -> CustomerPool.fromCsv(unclosed, "id"))
                .hasMessage("customers file " + unclosed + ": line 3: a quoted field is never closed");
        Path notUtf8 = dir.resolve("latin1.csv");
        Files.write(notUtf8, new byte[] {'i', 'd', '\n', (byte) 0xE9, '\n'});
        assertThatThrownBy(() -> CustomerPool.fromCsv(notUtf8, "id")).hasMessageContaining("is not UTF-8");
    }

    @Test
    void aPoolFromAFileDrawsOnlyItsValues() throws IOException {
        Path f = file("id\na\nb\nc\n");
        CustomerPool pool = CustomerPool.fromCsv(f, "id");
        for (int i = 0; i < 100; i++) {
            assertThat(pool.draw(java.util.concurrent.ThreadLocalRandom.current())).isIn(List.of("a", "b", "c"));
        }
    }
}
