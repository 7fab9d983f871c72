/**
 * The {@code pacer} command line: one root command that assembles the subcommands of the agent
 * ({@code run}, {@code plan}, {@code config}), the simulator ({@code simulate}) and the demo.
 *
 * <p>Why a module of its own: the agent and the simulator stay libraries with their own commands,
 * usable and testable without each other; only this module depends on all of them, chooses the
 * logging backend (Logback) and is packaged as {@code pacer.jar} with its libraries beside it, which
 * the repository's {@code pacer} script runs.
 */
package io.leaderpacer.cli;
