/**
 * The {@code rigscope cloud} subcommands ({@code plan}, {@code up}, {@code run}, {@code fetch},
 * {@code extend}, {@code down}, {@code check}) and their AWS options. Commands: may use {@code cloud} and its
 * subpackages, {@code options}, {@code series}, {@code pricing}; only {@code cli.RigscopeCommand} names them. Each
 * runs on the command's thread.
 */
package io.rigscope.rig.cli.cloud;
