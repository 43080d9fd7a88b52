package io.rigscope.localenv.kafka;

import java.nio.file.Path;
import java.time.Duration;

/** A stand-in command for {@link DetachedBrokerTest}: finds or starts the broker, prints its pid, holds a lease. */
public final class FindOrStartMain {

    private FindOrStartMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        long self = ProcessHandle.current().pid();
        DetachedBroker.Running r = DetachedBroker.findOrStart(Path.of(args[0]), Duration.ofSeconds(2), self);
        System.out.println(r.pid() + " " + r.started());
        Thread.sleep(Long.parseLong(args[1]));
        new BrokerLeases(Path.of(args[0])).drop(self);
    }
}
