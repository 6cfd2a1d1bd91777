package dev.junction.gateway.admission;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * What the gateway takes on before it sheds: requests beyond these bounds are answered
 * 503 with {@code Retry-After} at once, before their bodies are read, in the error shape
 * of their API. Actuator's endpoints are never shed.
 *
 * @param maxInFlight requests in progress at once (streams until their last chunk); 0: no
 * upper bound (the bound still follows the event loops unless
 * {@code targetEventLoopDelay} is 0). About the requests per second the instance carries
 * times their usual duration, with room to spare: high enough for long streams; below it
 * the bound follows the event loops ({@code targetEventLoopDelay})
 * @param minInFlight the least the bound comes down to while the event loops run late
 * @param targetEventLoopDelay how late the server's event loops may run before the bound
 * on requests in progress comes down: below the requests in progress while they run
 * later, back up towards {@code maxInFlight} while they are on time, so that a gateway
 * past its capacity sheds the excess instead of taking on more than its cores serve. 0:
 * the bound stays at {@code maxInFlight}
 * @param queueSize requests that may wait, unread, for one of those to end; more are
 * shed. 0 (the default) sheds at once: where the gateway's own CPU is what runs out, a
 * queue adds waiting without adding throughput
 * @param maxQueueWait the longest a request waits to be admitted before it is shed
 * @param maxBodyBytesInFlight bytes of request bodies in progress at once, by their
 * {@code Content-Length} (64 KB for a chunked body); a request beyond it is shed unless
 * it is the only one with a body. Unset: a sixteenth of the heap; 0: no bound
 * @param maxEventLoopDelay how late the server's event loops may run what is due before
 * new requests are shed: the time a new request would wait there before the gateway reads
 * it; 0 (the default): no bound
 * @param probeInterval how often each event loop's delay is measured
 * @param retryAfter the {@code Retry-After} given with a shed request
 */
@ConfigurationProperties(AdmissionProperties.PREFIX)
public record AdmissionProperties(@DefaultValue("2048") int maxInFlight, @DefaultValue("256") int minInFlight,
		@DefaultValue("20ms") Duration targetEventLoopDelay, @DefaultValue("0") int queueSize,
		@DefaultValue("1s") Duration maxQueueWait, @Nullable DataSize maxBodyBytesInFlight,
		@DefaultValue("0ms") Duration maxEventLoopDelay, @DefaultValue("10ms") Duration probeInterval,
		@DefaultValue("1s") Duration retryAfter) {

	/** The body budget: the one set, else a sixteenth of {@code maxHeap}. */
	public DataSize maxBodyBytesInFlight(long maxHeap) {
		return (this.maxBodyBytesInFlight != null) ? this.maxBodyBytesInFlight : DataSize.ofBytes(maxHeap / 16);
	}

	/** Prefix of these properties. */
	public static final String PREFIX = "junction.gateway.admission";

	public AdmissionProperties {
		if (maxInFlight < 0 || minInFlight < 1 || targetEventLoopDelay.isNegative() || queueSize < 0
				|| (maxBodyBytesInFlight != null && maxBodyBytesInFlight.isNegative()) || maxQueueWait.isNegative()
				|| maxEventLoopDelay.isNegative() || probeInterval.isNegative() || probeInterval.isZero()
				|| retryAfter.isNegative()) {
			throw new IllegalArgumentException(PREFIX
					+ ": max-in-flight, target-event-loop-delay, queue-size, max-queue-wait, max-body-bytes-in-flight and "
					+ "max-event-loop-delay must not be negative, min-in-flight and probe-interval must be positive and "
					+ "retry-after not negative");
		}
	}

}
