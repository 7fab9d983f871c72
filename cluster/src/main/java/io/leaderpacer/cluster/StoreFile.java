package io.leaderpacer.cluster;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A PKCS12 key store or trust store on disk and its password (the same password protects the store and its key).
 *
 * <p>Why this module has its own type rather than the embedded module's {@code KeyStoreFile}: that module brings
 * Kafka's test kit and server with it, and this launcher must stay a plain library that runs any Kafka version from
 * its own jars. {@link #toString()} never shows the password.
 *
 * @param path     the store's file
 * @param password the store's (and its key's) password
 */
public record StoreFile(Path path, String password) {

    public StoreFile {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(password, "password");
    }

    @Override
    public String toString() {
        return "StoreFile[" + path + "]";
    }
}
