package io.rigscope.benchmarks.peers;

import io.rigscope.generator.GeneratorOptions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The two rows of {@code bench generator --vs-peers} for each tool: {@code defaults}, the tool as it comes (no setting
 * given that the tool itself does not require), and {@code best}, the settings that give it its highest rate on a
 * small host (the bench's {@code --io-threads}, {@code --max-in-flight}, {@code --peer-connections}, {@code --wrk-*}
 * and rigscope's client flags). Each row is its own JVM (or wrk run), its settings handed over as system properties
 * that the drivers read ({@code rigscope.peer.*}; a property absent leaves the tool's own default).
 *
 * <ul>
 *   <li>rigscope, defaults: what {@code generate} does without flags ({@link GeneratorOptions#defaults()}: the
 *       adaptive wake policy with its 100 µs lag budget, 50 µs least wake gap, 100 ms of connections opened ahead, no
 *       polling), and at each step {@code generate}'s client loops and in-flight cap for that rate
 *       ({@code DefaultSizing}: a loop per 50,000 req/s at most the CPUs, 25 ms of the rate at least 256; the row
 *       sets neither property, so {@code RigscopePeer} applies the rule). Best: its
 *       defaults are its intended best; what the best row changes is the load's shape, not the engine: one client
 *       loop (a lane takes up to 25,000 req/s, and a second loop only competes with the server for the CPUs) and the
 *       in-flight cap of {@code --max-in-flight} (1,000: a host stall of 83 ms at 12,000 req/s fits under it, 21 ms
 *       under 256), with any client flag given ({@code --max-send-lag-us}, {@code --precise}, {@code --poll-us}...).</li>
 *   <li>Hyperfoil, defaults: its own ({@code threads} 1, {@code sharedConnections} not set, {@code maxSessions} = the
 *       rate, {@code variance} true: Poisson arrivals, {@code sessionLimitPolicy} FAIL). Best: {@code threads}
 *       {@code --io-threads}, {@code sharedConnections} {@code --peer-connections}, {@code maxSessions}
 *       {@code --max-in-flight} with policy CONTINUE (a session due while all are busy starts late, and the step says
 *       so), {@code variance} false (evenly spaced, as rigscope's schedule).</li>
 *   <li>Gatling, defaults: a connection per virtual user (its default). Best: {@code shareConnections} (one pool for
 *       every user: without it each request opens and closes a connection).</li>
 *   <li>wrk (closed loop, the ceiling), defaults: {@code -t2 -c10} (its own). Best: {@code -t --wrk-threads -c
 *       --wrk-connections} (1 and 64).</li>
 * </ul>
 */
public final class PeerRows {

    /** The two rows, in the order they run. */
    public static final List<String> NAMES = List.of("defaults", "best");

    /** wrk's own defaults: {@code -t2 -c10}. */
    static final int WRK_DEFAULT_THREADS = 2;
    static final int WRK_DEFAULT_CONNECTIONS = 10;

    /**
     * One row of one tool.
     *
     * @param name {@code defaults} or {@code best}
     * @param properties the system properties of the tool's JVM ({@code rigscope.peer.*}); empty for wrk
     * @param settings the settings as the figures show them (the tool's own names)
     */
    record Row(String name, Map<String, String> properties, Map<String, Object> settings) {
        Row {
            properties = Map.copyOf(properties);
            settings = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(settings));
        }
    }

    private PeerRows() {
    }

    /**
     * The row {@code name} of {@code tool} under {@code config}; {@code toolCpus} is how many CPUs a tool may use (a
     * loop per CPU is rigscope's default).
     */
    static Row of(String tool, String name, PeerBench.Config config, int toolCpus) {
        boolean best = name.equals("best");
        if (!best && !name.equals("defaults")) {
            throw new IllegalArgumentException("no row '" + name + "' (rows: " + NAMES + ")");
        }
        Map<String, String> p = new LinkedHashMap<>();
        Map<String, Object> s = new LinkedHashMap<>();
        switch (tool) {
            case "rigscope" -> {
                if (best) {
                    p.put("rigscope.peer.threads", Integer.toString(config.toolThreads()));
                    p.put("rigscope.peer.max-in-flight", Integer.toString(config.maxInFlight()));
                    p.putAll(config.rigscopeProperties());
                } else {
                    // no threads nor max-in-flight: each step takes generate's (DefaultSizing at the step's rate)
                    GeneratorOptions d = GeneratorOptions.defaults();
                    p.put("rigscope.peer.min-wake-gap-us", Long.toString(d.minWakeGapNanos() / 1000));
                    p.put("rigscope.peer.preconnect-ms", Long.toString(d.preconnect().toMillis()));
                    p.put("rigscope.peer.poll-us", Long.toString(d.pollNanos() / 1000));
                    p.put("rigscope.peer.max-send-lag-us", Long.toString(d.maxSendLagNanos() / 1000));
                    p.put("rigscope.peer.busy-poll", Boolean.toString(d.busyPoll()));
                }
                if (!best) {
                    s.put("threads", "generate's: one per 50,000 req/s, at most the " + toolCpus + " CPU(s)");
                    s.put("max-in-flight", "generate's: 25 ms of the rate, at least 256");
                }
                p.forEach((k, v) -> s.put(k.replace("rigscope.peer.", ""), v));
                long lag = Long.parseLong(p.getOrDefault("rigscope.peer.max-send-lag-us", "100"));
                s.put("wake_policy", lag == 0 ? "precise" : "adaptive");
            }
            case "hyperfoil" -> {
                if (best) {
                    p.put("rigscope.peer.threads", Integer.toString(config.toolThreads()));
                    p.put("rigscope.peer.connections", Integer.toString(config.connections()));
                    p.put("rigscope.peer.max-in-flight", Integer.toString(config.maxInFlight()));
                    p.put("rigscope.peer.session-limit-policy", "CONTINUE");
                    p.put("rigscope.peer.variance", "false");
                    s.put("threads", config.toolThreads());
                    s.put("sharedConnections", config.connections());
                    s.put("maxSessions", config.maxInFlight());
                    s.put("sessionLimitPolicy", "CONTINUE");
                    s.put("variance", false);
                } else {
                    s.put("threads", "1 (its default)");
                    s.put("sharedConnections", "its default (not set)");
                    s.put("maxSessions", "the rate (its default)");
                    s.put("sessionLimitPolicy", "FAIL (its default)");
                    s.put("variance", "true (its default: Poisson arrivals)");
                }
            }
            case "gatling" -> {
                p.put("rigscope.peer.share-connections", Boolean.toString(best));
                s.put("shareConnections", best);
            }
            case "wrk" -> {
                s.put("threads", best ? config.wrkThreads() : WRK_DEFAULT_THREADS);
                s.put("connections", best ? config.wrkConnections() : WRK_DEFAULT_CONNECTIONS);
            }
            default -> throw new IllegalArgumentException("no rows for tool '" + tool + "'");
        }
        return new Row(name, p, s);
    }

    /** {@code --peer-rows}: {@code defaults}, {@code best} or both, comma-separated, in {@link #NAMES}' order. */
    public static List<String> parse(String value) {
        List<String> asked = new java.util.ArrayList<>();
        for (String part : value.split(",")) {
            String v = part.strip();
            if (!NAMES.contains(v)) {
                throw new IllegalArgumentException("'" + v + "' is not a row: defaults, best or defaults,best");
            }
            asked.add(v);
        }
        return NAMES.stream().filter(asked::contains).toList();
    }
}
