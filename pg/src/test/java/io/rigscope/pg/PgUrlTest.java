package io.rigscope.pg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.r2dbc.postgresql.client.SSLMode;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PgUrlTest {

    @Test
    void parsesAllPartsAndWritesThemBack() {
        PgUrl u = PgUrl.parse("--pg", "postgresql://owner:s%40cret@db.example:6432/metering");
        assertThat(u).isEqualTo(new PgUrl("db.example", 6432, "metering", "owner", "s@cret"));
        assertThat(u.libpq()).isEqualTo("postgresql://owner:s%40cret@db.example:6432/metering");
        assertThat(u.r2dbc()).isEqualTo("r2dbc:postgresql://owner:s%40cret@db.example:6432/metering");
    }

    @Test
    void defaultsPortUserAndDatabaseAndAcceptsEveryScheme() {
        assertThat(PgUrl.parse("--pg", "postgres://localhost")).isEqualTo(new PgUrl("localhost", 5432, "postgres", "postgres", null));
        assertThat(PgUrl.parse("--pg", "r2dbc:postgresql://app@h/x").user()).isEqualTo("app");
        assertThat(PgUrl.parse("--pg", "r2dbc:postgres://app@h/x?sslmode=require").parameters())
                .containsEntry("sslmode", "require");
    }

    @Test
    void keepsEveryQueryParameterInOrderThroughARoundTrip() {
        String text = "postgresql://owner@db.example:5432/metering?sslmode=verify-full"
                + "&sslrootcert=%2Fetc%2Fssl%2Frds%20bundle.pem&application_name=ingest%2Bbench"
                + "&options=-c%20statement_timeout%3D5s%20-c%20search_path%3Dapp&connect_timeout=3";
        PgUrl u = PgUrl.parse("--pg", text);
        assertThat(u.parameters()).containsExactly(Map.entry("sslmode", "verify-full"),
                Map.entry("sslrootcert", "/etc/ssl/rds bundle.pem"), Map.entry("application_name", "ingest+bench"),
                Map.entry("options", "-c statement_timeout=5s -c search_path=app"), Map.entry("connect_timeout", "3"));
        assertThat(u.libpq()).isEqualTo(text);
        assertThat(PgUrl.parse("--pg", u.r2dbc())).isEqualTo(u);
        assertThat(PgUrl.parse("--pg", u.libpq())).isEqualTo(u);
        assertThat(u.as("app", "pw").parameters()).isEqualTo(u.parameters());
    }

    @Test
    void appliesSslModeAndTheOtherParametersToTheR2dbcConfiguration() {
        PgUrl u = PgUrl.parse("--pg", "postgresql://u@h/d?sslmode=require&application_name=x&connect_timeout=3"
                + "&options=-c%20statement_timeout%3D5s");
        assertThat(PgParameter.sslMode(u.sslMode())).isEqualTo(SSLMode.REQUIRE);
        assertThat(u.configuration("fallback").build().toString()).contains("applicationName='x'")
                .contains("connectTimeout=PT3S").contains("options='{statement_timeout=5s}'");
        PgUrl plain = new PgUrl("h", 5432, "d", "u", null);
        assertThat(plain.sslMode()).isEqualTo("disable");
        assertThat(plain.configuration("fallback").build().toString()).contains("applicationName='fallback'")
                .contains("connectTimeout=PT10S");
        assertThat(PgParameter.sslMode(PgUrl.parse("--pg", "postgresql://u@h/d?sslmode=verify-full").sslMode()))
                .isEqualTo(SSLMode.VERIFY_FULL);
        assertThat(PgParameter.settings("-c a=1 -cb=2 --search-path=app"))
                .containsExactly(Map.entry("a", "1"), Map.entry("b", "2"), Map.entry("search_path", "app"));
    }

    @Test
    void neverShowsThePasswordNorTheKeyPassword() {
        PgUrl u = PgUrl.parse("--pg", "postgresql://a:topsecret@h:1/d?sslmode=require&sslpassword=keysecret");
        assertThat(u.toString()).doesNotContain("topsecret").doesNotContain("keysecret")
                .isEqualTo("postgresql://a:***@h:1/d?sslmode=require&sslpassword=***");
        assertThatThrownBy(() -> PgUrl.parse("--pg", "mysql://a:topsecret@h/d"))
                .hasMessageContaining("--pg").hasMessageNotContaining("topsecret");
        assertThatThrownBy(() -> PgUrl.parse("--pg", "postgresql://a:topsecret@h/d?sslmode=sometimes"))
                .hasMessageContaining("--pg").hasMessageContaining("sslmode 'sometimes'")
                .hasMessageNotContaining("topsecret");
        assertThat(PgUrl.redact("r2dbc:postgresql://a:topsecret@h/d?password=p2")).isEqualTo("r2dbc:postgresql://a:***@h/d?password=***");
    }

    @Test
    void refusesWhatItCannotApplyNamingTheFlagAndTheParameter() {
        assertThatThrownBy(() -> PgUrl.parse("--pg", "postgresql:///db")).hasMessageContaining("--pg");
        assertThatThrownBy(() -> PgUrl.parse("--pg", " ")).hasMessageContaining("--pg is empty");
        assertThatThrownBy(() -> PgUrl.parse("database", "postgresql://h/d?gssencmode=disable"))
                .hasMessageContaining("database").hasMessageContaining("'gssencmode'").hasMessageContaining("sslmode");
        assertThatThrownBy(() -> PgUrl.parse("--pg", "postgresql://h/d?connect_timeout=soon"))
                .hasMessageContaining("connect_timeout 'soon'");
        assertThatThrownBy(() -> PgUrl.parse("--pg", "postgresql://h/d?options=statement_timeout%3D5"))
                .hasMessageContaining("expected -c name=value");
        assertThatThrownBy(() -> PgUrl.parse("--pg", "postgresql://h/d?sslmode=require&sslmode=disable"))
                .hasMessageContaining("'sslmode' twice");
    }
}
