package io.rigscope.sut.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PgUrlTest {

    @Test
    void aLibpqUrlGivesHostPortDatabaseUserAndPassword() {
        PgUrl u = PgUrl.parse("--pg", "postgresql://owner:s%40cret@db.example:6432/metering");
        assertThat(u).isEqualTo(new PgUrl("db.example", 6432, "metering", "owner", "s@cret"));
        assertThat(u.libpq()).isEqualTo("postgresql://owner:s%40cret@db.example:6432/metering");
        assertThat(u.r2dbc()).isEqualTo("r2dbc:postgresql://owner:s%40cret@db.example:6432/metering");
    }

    @Test
    void defaultsArePort5432UserPostgresAndTheUsersDatabase() {
        assertThat(PgUrl.parse("--pg", "postgres://localhost")).isEqualTo(new PgUrl("localhost", 5432, "postgres", "postgres", null));
        assertThat(PgUrl.parse("--pg", "r2dbc:postgresql://app@h/x").user()).isEqualTo("app");
    }

    @Test
    void thePasswordNeverShowsInTextOrErrors() {
        assertThat(PgUrl.parse("--pg", "postgresql://a:topsecret@h:1/d").toString()).doesNotContain("topsecret");
        assertThatThrownBy(() -> PgUrl.parse("--pg", "mysql://a:topsecret@h/d"))
                .hasMessageContaining("--pg").hasMessageNotContaining("topsecret");
    }

    @Test
    void aUrlWithoutHostIsRejectedNamingTheFlag() {
        assertThatThrownBy(() -> PgUrl.parse("--pg", "postgresql:///db")).hasMessageContaining("--pg");
        assertThatThrownBy(() -> PgUrl.parse("--pg", " ")).hasMessageContaining("--pg is empty");
    }
}
