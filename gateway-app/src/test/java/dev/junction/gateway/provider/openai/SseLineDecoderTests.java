package dev.junction.gateway.provider.openai;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SseLineDecoderTests {

	@Test
	void joinsLinesCutAcrossBuffersIncludingMultiByteCharacters() {
		byte[] stream = "data: {\"content\":\"héllo 世界\"}\n\n: keep-alive\nevent: x\ndata: [DONE]\n\n"
			.getBytes(StandardCharsets.UTF_8);
		for (int cut = 1; cut < stream.length; cut++) {
			SseLineDecoder decoder = new SseLineDecoder();
			List<String> data = new ArrayList<>();
			data.addAll(decoder.decode(Unpooled.wrappedBuffer(stream, 0, cut)));
			data.addAll(decoder.decode(Unpooled.wrappedBuffer(stream, cut, stream.length - cut)));
			assertThat(data).as("cut at %d", cut).containsExactly("{\"content\":\"héllo 世界\"}", "[DONE]");
		}
	}

	@Test
	void acceptsCarriageReturnsAndDataWithoutSpace() {
		SseLineDecoder decoder = new SseLineDecoder();
		assertThat(decoder.decode(Unpooled.copiedBuffer("data:{}\r\n\r\ndata: [DONE]\r\n", StandardCharsets.UTF_8)))
			.containsExactly("{}", "[DONE]");
	}

}
