package io.leaderpacer.engine.config;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reference configuration shipped at config/pacer.properties documents every key with its
 * default: if a key is added or a default changes, this test says the file is out of date.
 */
class ReferenceConfigurationTest {

    private static final Path REFERENCE = Path.of("..", "config", "pacer.properties");

    @Test
    void referenceFile_listsEveryKeyWithItsDefault() throws IOException {
        Properties props = new Properties();
        try (Reader r = Files.newBufferedReader(REFERENCE)) {
            props.load(r);
        }
        for (ConfigKey key : ConfigKey.values()) {
            assertThat(props.getProperty(key.key()))
                    .as("reference value of %s", key.key())
                    .isEqualTo(key.defaultValue());
        }
    }

    @Test
    void referenceFile_parsesToTheDefaultConfiguration() throws IOException {
        Properties props = new Properties();
        try (Reader r = Files.newBufferedReader(REFERENCE)) {
            props.load(r);
        }
        Map<String, String> policy = new HashMap<>();
        for (String name : props.stringPropertyNames()) {
            if (ConfigKey.forName(name) != null) {
                policy.put(name, props.getProperty(name));
            }
        }
        assertThat(PacerConfig.fromMap(policy)).isEqualTo(PacerConfig.defaults());
    }

    @Test
    void referenceFile_documentsTheAllowedRangeOfEveryKey() throws IOException {
        String text = Files.readString(REFERENCE);
        for (ConfigKey key : ConfigKey.values()) {
            int at = text.indexOf(key.key() + "=");
            assertThat(at).as("%s is in the file", key.key()).isPositive();
            String before = text.substring(Math.max(0, at - 700), at);
            assertThat(before).as("comment above %s", key.key()).contains("Default");
        }
    }
}
