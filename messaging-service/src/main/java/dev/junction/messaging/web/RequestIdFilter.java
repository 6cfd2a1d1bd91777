package dev.junction.messaging.web;

import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Gives every request its {@link RequestId} before anything else runs, and returns it in
 * the {@value RequestId#HEADER} response header of every answer, errors included.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class RequestIdFilter implements WebFilter {

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		String id = RequestId.acceptOrTrace(exchange.getRequest().getHeaders().getFirst(RequestId.HEADER),
				exchange.getRequest().getHeaders().getFirst(RequestId.TRACEPARENT));
		exchange.getAttributes().put(RequestId.ATTRIBUTE, id);
		exchange.getResponse().getHeaders().set(RequestId.HEADER, id);
		return chain.filter(exchange);
	}

}
