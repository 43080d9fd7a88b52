/**
 * What every layer of rig shares, at the bottom: duration parsing ({@code Durations}), exit codes
 * ({@code ExitCodes}), the usage error that exits 2 naming the key ({@code UsageException}), the Kafka options with
 * what rig publishes itself through the write-ahead journal and the journals an earlier command left
 * ({@code KafkaOptions}, {@code KafkaOptions.JournaledPublisher}, {@code KafkaOptions.JournaledPublisher.Leftovers}),
 * the PostgreSQL target ({@code PgTarget}), the console's logging ({@code ConsoleLogging}). Uses no other rig package
 * (only the modules below rig); every rig package may use it. Stateless helpers and picocli option holders, read on
 * the command's thread.
 */
package io.rigscope.rig.options;
