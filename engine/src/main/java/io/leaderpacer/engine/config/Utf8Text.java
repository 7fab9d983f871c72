package io.leaderpacer.engine.config;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Strict UTF-8 decoding of a configuration file's bytes, naming the first bad byte and its line.
 *
 * <p>Why: every file the policy is configured from (the agent's properties file, a simulator scenario) must be
 * read as UTF-8 without silent replacement characters, and the JDK's own error ("Input length = 1") does not
 * say where the problem is. Each reader wraps {@link NotUtf8Exception} into its own error naming the file.
 */
public final class Utf8Text {

    private Utf8Text() {}

    /**
     * The text of {@code bytes}.
     *
     * @throws NotUtf8Exception at the first byte that is not valid UTF-8
     */
    public static String decode(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (result.isUnderflow()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            int at = in.position();
            int line = 1;
            for (int i = 0; i < at; i++) {
                if (bytes[i] == '\n') {
                    line++;
                }
            }
            throw new NotUtf8Exception(bytes[at] & 0xff, line);
        }
        return out.flip().toString();
    }

    /** A file that is not UTF-8: which byte and on which line. */
    public static final class NotUtf8Exception extends IllegalArgumentException {

        private static final long serialVersionUID = 1L;

        NotUtf8Exception(int byteValue, int line) {
            super("not UTF-8 text: byte 0x" + String.format(Locale.ROOT, "%02x", byteValue) + " on line " + line
                    + " is not valid UTF-8 (save the file as UTF-8)");
        }
    }
}
