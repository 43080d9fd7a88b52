package io.rigscope.model.codec;

import io.rigscope.model.wire.DeadLetter;
import io.rigscope.model.wire.WireRecord;

/** The outcome of decoding one payload: a record, or a dead letter that says why not. Never an exception. */
public sealed interface Decoded permits Decoded.Ok, Decoded.Failed {

    /** A well-formed record. */
    record Ok(WireRecord record) implements Decoded {
    }

    /** A payload that could not be decoded, ready for {@code rig.dlq}. */
    record Failed(DeadLetter deadLetter) implements Decoded {
    }
}
