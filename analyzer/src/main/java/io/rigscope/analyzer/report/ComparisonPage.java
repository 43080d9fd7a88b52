package io.rigscope.analyzer.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rigscope.analyzer.compare.Comparison;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The comparison page of {@code compare A B --report-html}: the two series overlaid per second (p50/p99, the
 * freeze-seconds of the judged repeats counted up, and every telemetry panel of the series page), with the
 * comparison's lines and verdict. Each side is the same wire lines the single-series report inlines
 * ({@link HtmlReport#wireLines}); the page's script ({@code compare-page.js}) reads them with the series page's own
 * script and draws its panels on one axis: seconds since each side's first judged repeat started. Self-contained
 * and offline like the series report; the same inputs give the same bytes.
 */
public final class ComparisonPage {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ComparisonPage() {
    }

    /**
     * The page.
     *
     * @param c the comparison (B against A)
     * @param linesA side A's wire lines ({@link HtmlReport#wireLines})
     * @param linesB side B's
     */
    public static String render(Comparison c, List<String> linesA, List<String> linesB) {
        Objects.requireNonNull(c, "c");
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("a", Map.of("series", c.a().series(), "source", c.a().source()));
        m.put("b", Map.of("series", c.b().series(), "source", c.b().source()));
        m.put("verdict", c.verdict());
        m.put("why", c.why());
        m.put("p_value", c.pValue());
        m.put("lines", c.lines());
        try {
            return SeriesPage.compared("rigscope compare " + c.a().series() + " / " + c.b().series() + ": "
                    + (c.verdict() == null ? "no verdict" : c.verdict()), linesA, linesB, JSON.writeValueAsString(m));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
