/**
 * The {@code rigscope} commands (picocli): one class per command, every command of rig lives here (the {@code cloud}
 * subcommands in {@code cli.cloud}), with what only commands use (their option groups, report output, the bench
 * commands' helpers, {@code SeriesLaunch}, and the helpers of one command each: {@code EverySeries} for {@code analyze}
 * without {@code --series}, {@code DemoPlan} for {@code demo}, {@code LoadPlanFile} for {@code generate}). The bench
 * commands call the benchmarks module ({@code io.rigscope.benchmarks}); {@code BenchPeerMain} is the main class of
 * rigscope's own tool in the peer bench. Shows {@code RigscopeCommand} to {@code Main}. The top layer: it may use any
 * rig package; nothing but {@code Main} uses it ({@code RigLayersTest}). A command runs on the caller's thread and
 * hands work to the packages below.
 */
package io.rigscope.rig.cli;
