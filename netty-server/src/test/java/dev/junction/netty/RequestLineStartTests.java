package dev.junction.netty;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RequestLineStartTests {

	private final RequestLineStart lineStart = new RequestLineStart();

	private final EmbeddedChannel channel = new EmbeddedChannel(this.lineStart);

	@AfterEach
	void releaseBuffers() {
		this.channel.finishAndReleaseAll();
	}

	@Test
	void readsThePathOfARequestLineCutAcrossBuffers() {
		send("\r\nPOST /v1/mes");
		send("sages/count_tokens?beta=true HTTP/1.1\r\n");
		assertThat(this.lineStart.path()).isEqualTo("/v1/messages/count_tokens");
	}

	@Test
	void keepsAtMostTheStartOfAPathTooLongToEnd() {
		send("GET /v1/messages/" + "x".repeat(10_000));
		assertThat(this.lineStart.path()).startsWith("/v1/messages/x").hasSize(RequestLineStart.MAX - 4);
	}

	@Test
	void keepsNothingOfTheRestOfARequestAndStartsAgainWithTheNext() {
		send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
		send("POST /v1/messages HTTP/1.1\r\n");
		assertThat(this.lineStart.path()).isEqualTo("/health");
		this.lineStart.nextRequest();
		send("POST /v1/messages HTTP/1.1\r\n");
		assertThat(this.lineStart.path()).isEqualTo("/v1/messages");
	}

	@Test
	void knowsNoPathOfWhatIsNotARequestLine() {
		send("\u0016\u0003\u0001 binary /v1/messages");
		assertThat(this.lineStart.path()).isNull();
		this.lineStart.nextRequest();
		send("ages HTTP/1.1\r\n");
		assertThat(this.lineStart.path()).isNull();
	}

	@Test
	void passesEveryBufferOnUnchanged() {
		send("GET / HTTP/1.1\r\n");
		ByteBuf passed = this.channel.readInbound();
		assertThat(passed.toString(StandardCharsets.ISO_8859_1)).isEqualTo("GET / HTTP/1.1\r\n");
		passed.release();
	}

	private void send(String text) {
		this.channel.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1));
	}

}
