package io.leaderpacer.engine.config;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class Utf8TextTest {

    @Test
    void validUtf8_isDecodedUnchanged() {
        String text = "a=1\nb=Grüße ✓\n";
        assertThat(Utf8Text.decode(text.getBytes(StandardCharsets.UTF_8))).isEqualTo(text);
    }

    @Test
    void latin1ByteOnThirdLine_isNamedWithItsLine() {
        byte[] bytes = "a=1\nb=2\nc=Gr\u00fc\u00dfe\n".getBytes(StandardCharsets.ISO_8859_1);
        assertThatThrownBy(() -> Utf8Text.decode(bytes))
                .isInstanceOf(Utf8Text.NotUtf8Exception.class)
                .hasMessage("not UTF-8 text: byte 0xfc on line 3 is not valid UTF-8 (save the file as UTF-8)");
    }

    @Test
    void truncatedMultiByteSequenceAtTheEnd_isRefused() {
        byte[] check = "✓".getBytes(StandardCharsets.UTF_8);
        byte[] bytes = {'x', '\n', check[0], check[1]};
        assertThatThrownBy(() -> Utf8Text.decode(bytes)).hasMessageContaining("byte 0xe2 on line 2");
    }
}
