package io.leaderpacer.testbed;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A PKCS12 key store or trust store on disk and its password (the same password protects the store and its key).
 *
 * <p>Why a type: a TLS cluster needs several of them (the brokers' key store, the trust store, the cluster's own
 * admin identity under mutual TLS), and a path without its password, or a password given to the wrong store, is
 * the most common way to get TLS set-up wrong. The in-JVM and the process cluster take the same type, so a test's
 * certificates serve both. {@link #toString()} never shows the password.
 *
 * @param path     the store's file
 * @param password the store's (and its key's) password
 */
public record KeyStoreFile(Path path, String password) {

    public KeyStoreFile {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(password, "password");
    }

    @Override
    public String toString() {
        return "KeyStoreFile[" + path + "]";
    }
}
