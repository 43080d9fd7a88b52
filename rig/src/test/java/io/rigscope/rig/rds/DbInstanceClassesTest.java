package io.rigscope.rig.rds;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DbInstanceClassesTest {

    @Test
    void aSizeSetsTheVcpusAndTheFamilyTheMemoryPerVcpu() {
        assertThat(DbInstanceClasses.of("db.m7g.large")).contains(new DbInstanceClasses.Size(2, 8));
        assertThat(DbInstanceClasses.of("db.r6g.xlarge")).contains(new DbInstanceClasses.Size(4, 32));
        assertThat(DbInstanceClasses.of("db.m7g.4xlarge")).contains(new DbInstanceClasses.Size(16, 64));
        assertThat(DbInstanceClasses.of("db.c6gd.2xlarge")).contains(new DbInstanceClasses.Size(8, 16));
        assertThat(DbInstanceClasses.of("db.t4g.micro")).contains(new DbInstanceClasses.Size(2, 1));
    }

    @Test
    void aClassOutsideTheRulesIsUnknownNotGuessed() {
        assertThat(DbInstanceClasses.of("db.x2g.large")).isEmpty();
        assertThat(DbInstanceClasses.of("db.r5b.large")).isEmpty();
        assertThat(DbInstanceClasses.of("db.m7g.metal")).isEmpty();
        assertThat(DbInstanceClasses.of("m7g.large")).isEmpty();
        assertThat(DbInstanceClasses.of(null)).isEmpty();
    }
}
