package io.rigscope.importers.evidence;

import io.rigscope.model.wire.WireRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/** Reads one format's file into records of the series, counting what it could not read in the tally. */
interface EvidenceReader {

    /** Hands every record of the file to {@code out}; a line it cannot read is counted, never thrown on. */
    void read(Path file, Tally tally, Consumer<WireRecord> out) throws IOException;
}
