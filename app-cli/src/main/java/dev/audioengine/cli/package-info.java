/**
 * The {@code audioengine} command: the entry point {@link dev.audioengine.cli.Main}, the top command and its global
 * options, the engine it opens, and how errors become exit codes and messages.
 */
package dev.audioengine.cli;
