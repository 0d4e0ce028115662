/**
 * The resident process ({@code audioengine --daemon ...} or {@code AUDIOENGINE_DAEMON=1}): a JVM that stays up between
 * jobs, so that a script calling the command once per file pays the JVM start, the JIT compilation of the kernels and
 * the model load once. {@link dev.audioengine.cli.daemon.DaemonClient} is the small process each call starts
 * (java.base only); {@link dev.audioengine.cli.daemon.DaemonServer} is the resident process. The socket, its folder
 * and what makes a client pick a process: {@code DaemonFiles}.
 */
package dev.audioengine.cli.daemon;
