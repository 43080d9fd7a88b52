package io.rigscope.benchmarks.peers;

import io.rigscope.wire.host.ExecutableSearch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * {@code --peer-cpus}: which CPUs the bench server runs on and which the tool under test (each in turn) runs on,
 * through {@code taskset -c}, so the two do not take each other's CPU. Without it the kernel moves both event loops
 * (and each JVM's compiler and GC threads) over every CPU, and on a small host one preempts the other: on a 2-core VM
 * the rigscope driver's loop waited on the run queue for over 20 ms of some 40-ms spans during a 20,000 req/s step.
 *
 * @param server the server's CPUs, in taskset's list syntax ({@code 1}, {@code 2-3})
 * @param tools every tool's CPUs, in the same syntax
 */
public record CpuSplit(String server, String tools) {

    /** The command prefix that runs a command on the server's CPUs. */
    List<String> serverLauncher() {
        return List.of("taskset", "-c", server);
    }

    /** The command prefix that runs a command on the tools' CPUs. */
    List<String> toolLauncher() {
        return List.of("taskset", "-c", tools);
    }

    /** For the figures: {@code {"server": "1", "tools": "0"}}. */
    java.util.Map<String, Object> toMap() {
        return java.util.Map.of("server", server, "tools", tools);
    }

    /**
     * Parses {@code --peer-cpus}: {@code auto} (the last CPU this process may use for the server, the others for the
     * tools, when it may use two or more and taskset is installed), {@code none}, or {@code SERVER/TOOLS} in taskset's
     * list syntax ({@code 1/0}, {@code 3/0-2}).
     *
     * @return the split, or empty with the reason in {@code why} (for {@code none} and an {@code auto} that cannot
     *         split)
     * @throws IllegalArgumentException naming the value when it is neither
     */
    public static Optional<CpuSplit> parse(String value, StringBuilder why) {
        String v = value.strip();
        if (v.equals("none")) {
            why.append("not pinned (--peer-cpus none)");
            return Optional.empty();
        }
        boolean hasTaskset = ExecutableSearch.onPath("taskset").isPresent();
        if (v.equals("auto")) {
            List<Integer> cpus = allowedCpus();
            if (cpus.size() < 2) {
                why.append("not pinned: this process may use ").append(cpus.size()).append(" CPU(s), fewer than 2");
                return Optional.empty();
            }
            if (!hasTaskset) {
                why.append("not pinned: taskset is not installed (Debian: util-linux)");
                return Optional.empty();
            }
            int last = cpus.get(cpus.size() - 1);
            List<String> rest = new ArrayList<>();
            for (int c : cpus.subList(0, cpus.size() - 1)) {
                rest.add(Integer.toString(c));
            }
            return Optional.of(new CpuSplit(Integer.toString(last), String.join(",", rest)));
        }
        String[] parts = v.split("/", -1);
        if (parts.length != 2 || !isCpuList(parts[0]) || !isCpuList(parts[1])) {
            throw new IllegalArgumentException("--peer-cpus '" + value + "': expected auto, none or SERVER/TOOLS as "
                    + "CPU lists (e.g. 1/0 or 3/0-2)");
        }
        if (!hasTaskset) {
            throw new IllegalArgumentException("--peer-cpus '" + value + "': taskset is not installed (Debian: util-linux)");
        }
        return Optional.of(new CpuSplit(parts[0], parts[1]));
    }

    private static boolean isCpuList(String s) {
        return s.matches("\\d+(-\\d+)?(,\\d+(-\\d+)?)*");
    }

    /** The CPUs this process may run on ({@code Cpus_allowed_list} of /proc/self/status), else 0..n-1. */
    public static List<Integer> allowedCpus() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return expand(line.substring(line.indexOf(':') + 1).strip());
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or unreadable: fall back to the JVM's count
        }
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
            all.add(i);
        }
        return all;
    }

    /** {@code 0-2,5} to [0, 1, 2, 5]. */
    static List<Integer> expand(String list) {
        TreeSet<Integer> cpus = new TreeSet<>();
        for (String part : list.split(",")) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue;
            }
            int dash = p.indexOf('-');
            int from = Integer.parseInt(dash < 0 ? p : p.substring(0, dash));
            int to = dash < 0 ? from : Integer.parseInt(p.substring(dash + 1));
            for (int c = from; c <= to; c++) {
                cpus.add(c);
            }
        }
        return new ArrayList<>(cpus);
    }
}
