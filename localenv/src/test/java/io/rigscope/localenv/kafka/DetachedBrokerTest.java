package io.rigscope.localenv.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.wire.kafka.BrokerAddressFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("it")
class DetachedBrokerTest {

    @TempDir
    Path dir;

    @AfterEach
    void stopTheBrokerBeforeTheDirectoryGoes() {
        DetachedBroker.stop(dir, Duration.ofSeconds(30));
    }

    @Test
    void twoCommandsStartingAtTheSameInstantShareOneBroker() throws Exception {
        Process a = command(dir, 3000);
        Process b = command(dir, 3000);
        assertThat(a.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(b.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String outA = new String(a.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        String outB = new String(b.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(a.exitValue()).as(outA).isZero();
        assertThat(b.exitValue()).as(outB).isZero();
        String pidA = outA.split(" ")[0];
        assertThat(outB.split(" ")[0]).as("one broker for both").isEqualTo(pidA);
        assertThat(List.of(outA.split(" ")[1], outB.split(" ")[1])).as("exactly one of them started it")
                .containsExactlyInAnyOrder("true", "false");
        assertThat(ProcessHandle.of(Long.parseLong(pidA)).map(ProcessHandle::isAlive)).as("it outlives both")
                .contains(true);
    }

    @Test
    void theBrokerOutlivesItsCommandAndStopsItselfOnceNoLeaseIsHeldForTheIdlePeriod() throws Exception {
        long pid;
        try (KafkaEndpoint endpoint = detached(dir, Duration.ofSeconds(2), new CopyOnWriteArrayList<>())) {
            pid = endpoint.detachedBroker().orElseThrow().pid();
            assertThat(endpoint.ownsBroker()).isTrue();
            assertThat(new BrokerLeases(dir).live()).containsExactly(ProcessHandle.current().pid());
        }
        assertThat(new BrokerLeases(dir).live()).as("the lease is dropped on close").isEmpty();
        ProcessHandle broker = ProcessHandle.of(pid).orElseThrow();
        assertThat(broker.isAlive()).as("closing the endpoint does not stop the broker").isTrue();
        assertThat(BrokerState.read(dir).orElseThrow().idleStop()).isEqualTo(Duration.ofSeconds(2));
        broker.onExit().get(30, TimeUnit.SECONDS);
        assertThat(BrokerAddressFile.read(dir)).as("it deleted its bootstrap file").isEmpty();
        assertThat(Files.readString(dir.resolve("broker.log"))).contains("rigscope-broker: no lease for 2 s: stopping");
    }

    @Test
    void aLeaseOfADeadProcessIsStaleAndDoesNotKeepTheBrokerRunning() throws Exception {
        new BrokerLeases(dir).take(Long.MAX_VALUE / 2);
        assertThat(new BrokerLeases(dir).live()).isEmpty();
        assertThat(dir.resolve("leases")).isEmptyDirectory();
    }

    @Test
    void aBrokerKilledMidStreamIsStartedAgainOnItsPortAndNoAcknowledgedOrBufferedRecordIsLost() throws Exception {
        List<String> console = new CopyOnWriteArrayList<>();
        int before = 2_000;
        int during = 2_000;
        try (KafkaEndpoint endpoint = detached(dir, Duration.ofSeconds(60), console)) {
            String bootstrap = endpoint.bootstrap();
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
                admin.createTopics(List.of(new NewTopic("t", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            try (KafkaProducer<String, String> producer = producer(bootstrap)) {
                for (int i = 0; i < before; i++) {
                    producer.send(new ProducerRecord<>("t", "k", Integer.toString(i)));
                }
                producer.flush();
                long first = endpoint.detachedBroker().orElseThrow().pid();
                ProcessHandle killed = ProcessHandle.of(first).orElseThrow();
                killed.destroyForcibly();
                killed.onExit().get(10, TimeUnit.SECONDS);
                List<Future<RecordMetadata>> sent = new ArrayList<>();
                for (int i = before; i < before + during; i++) {
                    sent.add(producer.send(new ProducerRecord<>("t", "k", Integer.toString(i))));
                }
                for (Future<RecordMetadata> f : sent) {
                    f.get(120, TimeUnit.SECONDS);
                }
                long second = DetachedBroker.find(dir).orElseThrow().pid();
                assertThat(second).isNotEqualTo(first);
                assertThat(DetachedBroker.find(dir).orElseThrow().bootstrap()).isEqualTo(bootstrap);
            }
            List<String> values = new ArrayList<>();
            try (KafkaConsumer<String, String> consumer = consumer(bootstrap)) {
                TopicPartition tp = new TopicPartition("t", 0);
                consumer.assign(List.of(tp));
                consumer.seekToBeginning(List.of(tp));
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (values.size() < before + during && System.nanoTime() < deadline) {
                    consumer.poll(Duration.ofMillis(500)).forEach(r -> values.add(r.value()));
                }
            }
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < before + during; i++) {
                expected.add(Integer.toString(i));
            }
            assertThat(values).as("every record, once, in order").isEqualTo(expected);
        }
        assertThat(console).anySatisfy(l -> assertThat(l).startsWith("kafka: the embedded broker at ")
                .contains("is gone; starting it again"));
        assertThat(console).anySatisfy(l -> assertThat(l).startsWith("kafka: embedded broker started again at "));
    }

    private static KafkaEndpoint detached(Path dir, Duration idle, List<String> console) {
        return KafkaEndpoint.resolve(null, dir, Map.of(), KafkaEndpoint.Mode.DETACHED, idle, console::add);
    }

    private static Process command(Path dir, long holdMs) throws Exception {
        return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
                "-cp", System.getProperty("java.class.path"), FindOrStartMain.class.getName(), dir.toString(),
                Long.toString(holdMs)).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static KafkaProducer<String, String> producer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    private static KafkaConsumer<String, String> consumer(String bootstrap) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
    }
}
