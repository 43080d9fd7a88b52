package io.rigscope.importers.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@link VmstatFile}: a vmstat file of an evidence directory and the host it speaks for. */
class VmstatFileTest {

    @Test
    void aVmstatFileIsNamedByTheHostItsNameCarries() {
        assertThat(VmstatFile.host(Path.of("app-vmstat.log"))).isEqualTo("app");
        assertThat(VmstatFile.host(Path.of("vmstat-load-1.txt.gz"))).isEqualTo("load-1");
        assertThat(VmstatFile.host(Path.of("ip-10-0-1-17.ec2.internal.vmstat.log"))).isEqualTo("ip-10-0-1-17.ec2.internal");
        assertThat(VmstatFile.host(Path.of("vmstat.log"))).isEqualTo("host");
    }
}
