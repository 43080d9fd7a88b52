/**
 * {@code rigscope experiment}: arms of control and treatment alternated on one database. Shows {@code Experiment} (the
 * run, with the treatment {@code Experiment.Treatment} and the Postgres settings written and put back, {@code
 * Experiment.PgSettings}) and {@code ExperimentResult} (the arms compared, in the order {@code
 * ExperimentResult.ArmOrder}); package-private: {@code LeverChoice}. Orchestration: may use {@code options}. Runs on
 * the command's thread.
 */
package io.rigscope.rig.experiment;
