package dev.junction.messaging.web;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import dev.junction.messaging.common.Api;
import dev.junction.messaging.common.MessagingProperties;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Request timeout (408) and body-size limit (413). Event streams are long-lived by design
 * and have no timeout.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
public class RequestLimitFilter implements WebFilter {

	static final String STREAM_PATH = Api.BASE + "/events/stream";

	private final Duration timeout;

	private final DataSize maxBodySize;

	public RequestLimitFilter(MessagingProperties properties) {
		this.timeout = properties.http().requestTimeout();
		this.maxBodySize = properties.http().maxBodySize();
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		ServerHttpRequest request = exchange.getRequest();
		long max = this.maxBodySize.toBytes();
		if (request.getHeaders().getContentLength() > max) {
			return Mono.error(ApiException.payloadTooLarge(this.maxBodySize));
		}
		ServerWebExchange limited = exchange.mutate()
			.request(new LimitedBodyRequest(request, this.maxBodySize))
			.build();
		Mono<Void> handled = chain.filter(limited);
		if (isStream(request)) {
			return handled;
		}
		return handled.timeout(this.timeout, Mono.error(() -> ApiException.requestTimeout(this.timeout)));
	}

	/**
	 * Whether the request asks for the live event stream, which no timeout nor timer
	 * applies to.
	 */
	static boolean isStream(ServerHttpRequest request) {
		return request.getPath().value().equals(STREAM_PATH)
				|| request.getHeaders().getAccept().contains(MediaType.TEXT_EVENT_STREAM);
	}

	/**
	 * A request whose body fails with 413 once it grows past the limit (chunked bodies
	 * have no length).
	 */
	private static final class LimitedBodyRequest extends ServerHttpRequestDecorator {

		private final DataSize limit;

		LimitedBodyRequest(ServerHttpRequest delegate, DataSize limit) {
			super(delegate);
			this.limit = limit;
		}

		@Override
		public Flux<DataBuffer> getBody() {
			AtomicLong seen = new AtomicLong();
			long max = this.limit.toBytes();
			return super.getBody().map((buffer) -> {
				if (seen.addAndGet(buffer.readableByteCount()) > max) {
					DataBufferUtils.release(buffer);
					throw ApiException.payloadTooLarge(this.limit);
				}
				return buffer;
			});
		}

	}

}
