package io.rigscope.sut.auth;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.rigscope.sut.db.Sql;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import reactor.core.publisher.Mono;

/**
 * Bearer-token authentication against {@code api_keys} and the key's {@code last_used_at} touch.
 *
 * <p>A token is looked up by its SHA-256 once; a hit is remembered for the life of this instance (revoking
 * a key takes a restart of the SUT, which is fine for a benchmark target), a miss is asked again each time.
 *
 * <p>The touch is where the published hot-row wall came from: with {@link Touch#EVERY_REQUEST} every ingest
 * transaction updates the same {@code api_keys} row, so concurrent requests of one tenant queue on its row
 * lock until each commits. {@link Touch#PER_MINUTE} updates it at most once a minute per key and process.
 *
 * <p>Thread-safe; non-blocking.
 */
public final class ApiKeys {

    /** How often {@code api_keys.last_used_at} is updated. */
    public enum Touch {
        /** In every ingest transaction (the hot-row wall). */
        EVERY_REQUEST,
        /** At most once per minute per key, in the ingest transaction that finds it due. */
        PER_MINUTE;

        /** Parses {@code every-request} or {@code per-minute}. */
        public static Touch parse(String text) {
            return switch (text == null ? "" : text.strip().toLowerCase(java.util.Locale.ROOT)) {
                case "every-request" -> EVERY_REQUEST;
                case "per-minute" -> PER_MINUTE;
                default -> throw new IllegalArgumentException("--api-key-touch '" + text
                        + "' is not one of: every-request, per-minute");
            };
        }
    }

    /**
     * An authenticated caller.
     *
     * @param keyId api_keys.id
     * @param tenantId the key's tenant
     */
    public record Caller(long keyId, long tenantId) {
    }

    private static final long MINUTE_MS = 60_000;

    private final ConnectionFactory factory;
    private final Touch touch;
    private final LongSupplier clockMs;
    private final ConcurrentMap<String, Caller> known = new ConcurrentHashMap<>();
    private final ConcurrentMap<Long, AtomicLong> lastTouchMs = new ConcurrentHashMap<>();

    public ApiKeys(ConnectionFactory factory, Touch touch, LongSupplier clockMs) {
        this.factory = factory;
        this.touch = touch;
        this.clockMs = clockMs;
    }

    /** Lower-case hex SHA-256 of a token, as stored in {@code api_keys.key_hash}. */
    public static String hash(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /**
     * The caller an {@code Authorization} header names, or empty when the header is missing, not
     * {@code Bearer <token>}, or the token is unknown or revoked.
     */
    public Mono<Optional<Caller>> authenticate(String authorizationHeader) {
        if (authorizationHeader == null || !authorizationHeader.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Mono.just(Optional.empty());
        }
        String token = authorizationHeader.substring(7).strip();
        if (token.isEmpty()) {
            return Mono.just(Optional.empty());
        }
        String h = hash(token);
        Caller cached = known.get(h);
        if (cached != null) {
            return Mono.just(Optional.of(cached));
        }
        return Sql.withConnection(factory, c -> Sql.query(c,
                        "SELECT id, tenant_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL",
                        r -> new Caller(Sql.longOf(r, "id"), Sql.longOf(r, "tenant_id")), h))
                .next()
                .doOnNext(caller -> known.put(h, caller))
                .map(Optional::of)
                .defaultIfEmpty(Optional.empty());
    }

    /**
     * Updates the key's {@code last_used_at} on {@code c} (inside the caller's transaction) when this mode
     * says it is due; otherwise does nothing.
     */
    public Mono<Void> touchIfDue(Connection c, Caller caller) {
        if (touch == Touch.PER_MINUTE) {
            long now = clockMs.getAsLong();
            AtomicLong last = lastTouchMs.computeIfAbsent(caller.keyId(), k -> new AtomicLong(Long.MIN_VALUE / 2));
            long prev = last.get();
            if (now - prev < MINUTE_MS || !last.compareAndSet(prev, now)) {
                return Mono.empty();
            }
        }
        return Sql.update(c, "UPDATE api_keys SET last_used_at = now() WHERE id = $1", caller.keyId()).then();
    }
}
