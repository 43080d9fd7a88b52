package io.rigscope.benchmarks.peers;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Issue 42's goal for {@code bench generator --vs-peers}, judged from the figures of one run: rigscope's highest
 * open-loop rate held at least every open-loop peer's (Hyperfoil's and Gatling's, either row), at no more CPU a
 * request (at the rate it held) than any of them, on its defaults; the same judged for its best row. A peer that was
 * skipped, failed or held no step does not count; with no peer to compare, nothing is judged.
 */
final class PeerGoal {

    private PeerGoal() {
    }

    /** The goal, from the {@code tools} list of the figures. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> of(List<Map<String, Object>> tools) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rule", "rigscope's max open rate held >= every open-loop peer row's, at CPU µs/request <= each of theirs");
        double peersMax = 0;
        double peersLeastCpu = Double.NaN;
        List<String> counted = new java.util.ArrayList<>();
        Map<String, Object> rigscope = null;
        for (Map<String, Object> tool : tools) {
            String name = (String) tool.get("tool");
            if (name.equals("rigscope")) {
                rigscope = tool;
                continue;
            }
            if (name.equals("wrk")) {
                continue; // closed loop: the ceiling, not a rival
            }
            for (String row : PeerRows.NAMES) {
                if (tool.get(row) instanceof Map<?, ?> r && r.get("max_open_rate_per_s") instanceof Number max
                        && max.doubleValue() > 0 && r.get("cpu_us_per_request") instanceof Number cpu) {
                    counted.add(name + " " + row);
                    peersMax = Math.max(peersMax, max.doubleValue());
                    peersLeastCpu = Double.isNaN(peersLeastCpu) ? cpu.doubleValue() : Math.min(peersLeastCpu, cpu.doubleValue());
                }
            }
        }
        m.put("peer_rows_counted", counted);
        m.put("peers_max_open_rate_per_s", counted.isEmpty() ? null : peersMax);
        m.put("peers_least_cpu_us_per_request", counted.isEmpty() ? null : peersLeastCpu);
        for (String row : PeerRows.NAMES) {
            if (rigscope == null || !(rigscope.get(row) instanceof Map<?, ?> r)) {
                continue;
            }
            Map<String, Object> judged = new LinkedHashMap<>();
            Object max = r.get("max_open_rate_per_s");
            Object cpu = r.get("cpu_us_per_request");
            judged.put("max_open_rate_per_s", max);
            judged.put("cpu_us_per_request", cpu);
            if (counted.isEmpty()) {
                judged.put("met", null);
            } else {
                boolean rate = max instanceof Number n && n.doubleValue() >= peersMax;
                boolean lessCpu = cpu instanceof Number c && c.doubleValue() <= peersLeastCpu;
                judged.put("rate_met", rate);
                judged.put("cpu_met", lessCpu);
                judged.put("met", rate && lessCpu);
            }
            m.put("rigscope_" + row, judged);
        }
        return m;
    }
}
