package io.rigscope.wire.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

// a listening socket stands in for the broker: finding one needs only its port to answer
class BrokerAddressFileTest {

    @Test
    void findsTheAddressALiveProcessWroteWhenItsPortAnswers(@TempDir Path dir) throws Exception {
        try (var listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String address = "127.0.0.1:" + listener.getLocalPort();
            BrokerAddressFile.write(dir, address);
            assertThat(BrokerAddressFile.find(dir)).contains(address);
        }
    }

    @Test
    void findsNothingWhereNoBrokerWroteItsAddress(@TempDir Path dir) {
        assertThat(BrokerAddressFile.find(dir)).isEmpty();
    }

    @Test
    void ignoresAnAddressWhosePortNoLongerAnswers(@TempDir Path dir) throws Exception {
        int port;
        try (var listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = listener.getLocalPort();
        }
        BrokerAddressFile.write(dir, "127.0.0.1:" + port);
        assertThat(BrokerAddressFile.find(dir)).isEmpty();
    }

    @Test
    void ignoresAnUnreadableFile(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("bootstrap"), "not an address\n");
        assertThat(BrokerAddressFile.find(dir)).isEmpty();
    }

    @Test
    void deleteRemovesTheFileAndMayBeRepeated(@TempDir Path dir) throws Exception {
        BrokerAddressFile.write(dir, "127.0.0.1:19092");
        BrokerAddressFile.delete(dir);
        assertThat(dir.resolve("bootstrap")).doesNotExist();
        BrokerAddressFile.delete(dir);
    }
}
