package io.rigscope.localenv.testing;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Tuple;

/**
 * Inputs for property tests of parsers (jqwik): real inputs cut short or with a few characters replaced, inserted or
 * dropped, and random text, so that most tries are nearly valid and reach deep into a parser.
 */
public final class Mutations {

    private Mutations() {
    }

    /**
     * One of: a seed with up to {@code maxEdits} single-character edits, a seed cut at any point, random text of up
     * to 200 characters, or text of up to 160 characters drawn from the seeds' own characters.
     */
    public static Arbitrary<String> of(List<String> seeds, int maxEdits) {
        String alphabet = String.join("", seeds).chars().distinct()
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        Arbitrary<String> edited = Arbitraries.of(seeds).flatMap(seed -> Arbitraries.integers().between(0, maxEdits)
                .flatMap(n -> edits(seed, n)));
        Arbitrary<String> cut = Arbitraries.of(seeds).flatMap(seed -> Arbitraries.integers()
                .between(0, seed.length()).map(at -> seed.substring(0, at)));
        Arbitrary<String> random = Arbitraries.strings().ofMaxLength(200);
        Arbitrary<String> sameChars = alphabet.isEmpty() ? random
                : Arbitraries.strings().withChars(alphabet.toCharArray()).ofMaxLength(160);
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(5, edited), Tuple.of(2, cut), Tuple.of(1, random), Tuple.of(1, sameChars));
    }

    private static Arbitrary<String> edits(String text, int n) {
        if (n == 0 || text.isEmpty()) {
            return Arbitraries.just(text);
        }
        return Arbitraries.integers().between(0, text.length() - 1)
                .flatMap(at -> Arbitraries.chars().flatMap(c -> Arbitraries.integers().between(0, 2)
                        .map(op -> Tuple.of(at, c, op))))
                .flatMap(t -> {
                    int at = t.get1();
                    String next = switch (t.get3()) {
                        case 0 -> text.substring(0, at) + t.get2() + text.substring(at + 1);
                        case 1 -> text.substring(0, at) + t.get2() + text.substring(at);
                        default -> text.substring(0, at) + text.substring(at + 1);
                    };
                    return edits(next, n - 1);
                });
    }
}
