package io.leaderpacer.cli;

import picocli.CommandLine.IVersionProvider;

/**
 * {@code pacer --version}: the version Maven wrote into the jar's manifest, so that it can never
 * disagree with the build.
 */
public final class PacerVersion implements IVersionProvider {

    @Override
    public String[] getVersion() {
        String version = PacerCli.class.getPackage().getImplementationVersion();
        return new String[] {
            "pacer " + (version == null ? "(development build)" : version),
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
        };
    }
}
