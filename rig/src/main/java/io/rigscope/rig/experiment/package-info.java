/**
 * {@code rigscope experiment}: arms of control and treatment alternated on one database
 * ({@code Experiment}, {@code ExperimentResult.ArmOrder}), the treatment's Postgres settings written and put back ({@code Experiment.PgSettings},
 * {@code Experiment.Treatment}, {@code LeverChoice}), the arms compared ({@code ExperimentResult}). Orchestration: may use
 * {@code options}. Runs on the command's thread.
 */
package io.rigscope.rig.experiment;
