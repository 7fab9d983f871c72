/**
 * The agent's picocli commands: {@code run} (the agent), {@code plan} (one dry run) and {@code config} (the dynamic
 * configuration). The root {@code pacer} command of the cli module registers them.
 *
 * <p>Why here and not in the cli module: each command is a thin shell over this module's classes, and keeping them
 * next to those classes lets the agent's tests run them against a real cluster. User errors become one line on
 * standard error and a documented exit status, never a stack trace.
 *
 * <p>Layer: the face, at the top: the commands open the assembly and, for the one-off commands, the ports and
 * features directly. No agent package depends on it.
 */
package io.leaderpacer.agent.cli;
