package io.rigscope.wire.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HostPortTest {

    @Test
    void readsAHostAndItsPort() {
        assertThat(HostPort.parse("broker-1.example:9092")).isEqualTo(new HostPort("broker-1.example", 9092));
        assertThat(HostPort.parse(" 127.0.0.1:65535 ")).isEqualTo(new HostPort("127.0.0.1", 65_535));
    }

    @Test
    void readsAnIpv6HostInBracketsAndWritesItBackInBrackets() {
        HostPort parsed = HostPort.parse("[::1]:9092");
        assertThat(parsed).isEqualTo(new HostPort("::1", 9092));
        assertThat(parsed.toString()).isEqualTo("[::1]:9092");
        assertThat(HostPort.parse(parsed.toString())).isEqualTo(parsed);
    }

    @Test
    void aListenAddressMayOmitTheHostAndAskForAnyFreePort() {
        assertThat(HostPort.parseListen(":8099", "127.0.0.1")).isEqualTo(new HostPort("127.0.0.1", 8099));
        assertThat(HostPort.parseListen("8099", "127.0.0.1")).isEqualTo(new HostPort("127.0.0.1", 8099));
        assertThat(HostPort.parseListen("0.0.0.0:0", "127.0.0.1")).isEqualTo(new HostPort("0.0.0.0", 0));
        assertThat(HostPort.parseListen("[::]:8099", "127.0.0.1").unresolved().getHostString()).isEqualTo("::");
    }

    @Test
    void aBrokerAddressNeedsAHostAndAPortFromOneTo65535() {
        assertThatThrownBy(() -> HostPort.parse("broker")).hasMessage("'broker' is not HOST:PORT: no ':PORT'");
        assertThatThrownBy(() -> HostPort.parse(":9092"))
                .hasMessage("':9092' is not HOST:PORT: the host is missing");
        assertThatThrownBy(() -> HostPort.parse("broker:"))
                .hasMessage("'broker:' is not HOST:PORT: the port is missing");
        assertThatThrownBy(() -> HostPort.parse("broker:0"))
                .hasMessage("'broker:0' is not HOST:PORT: the port must be 1-65535");
        assertThatThrownBy(() -> HostPort.parse("broker:65536"))
                .hasMessage("'broker:65536' is not HOST:PORT: the port 65536 is not 1-65535");
        assertThatThrownBy(() -> HostPort.parse("broker:kafka"))
                .hasMessage("'broker:kafka' is not HOST:PORT: the port 'kafka' is not a number");
        assertThatThrownBy(() -> HostPort.parse("")).hasMessage("'' is not HOST:PORT: it is empty");
    }

    @Test
    void anIpv6HostWithoutBracketsOrClosingBracketIsNamedAsSuch() {
        assertThatThrownBy(() -> HostPort.parse("::1:9092"))
                .hasMessage("'::1:9092' is not HOST:PORT: an IPv6 host goes in brackets, as [::1]:9092");
        assertThatThrownBy(() -> HostPort.parse("[::1:9092"))
                .hasMessage("'[::1:9092' is not HOST:PORT: the IPv6 host has no closing ']'");
        assertThatThrownBy(() -> HostPort.parse("[::1]9092"))
                .hasMessage("'[::1]9092' is not HOST:PORT: no ':PORT' after the bracketed host");
        assertThatThrownBy(() -> HostPort.parse("[]:9092"))
                .hasMessage("'[]:9092' is not HOST:PORT: the host is missing");
    }

    @Test
    void aListenAddressRefusesAPortOutOfRange() {
        assertThatThrownBy(() -> HostPort.parseListen("-1", "127.0.0.1"))
                .hasMessage("'-1' is not HOST:PORT: the port -1 is not 0-65535");
        assertThatThrownBy(() -> HostPort.parseListen("host:port", "127.0.0.1"))
                .hasMessageContaining("not a number");
    }
}
