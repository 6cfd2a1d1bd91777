package dev.junction.calculator.server.internal;

import java.io.IOException;
import java.io.InputStream;

import com.google.protobuf.Message;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.Status;

/**
 * Parses each request message before the service sees it. A message that does not parse
 * ends the call with {@code INVALID_ARGUMENT}; nothing more reaches the service, which is
 * told the call is over.
 */
final class ParsingListener<ReqT, RespT> extends ServerCall.Listener<InputStream> {

	private final ServerCall.Listener<ReqT> service;

	private final ServerCall<InputStream, RespT> call;

	private final MethodDescriptor<ReqT, RespT> method;

	private boolean refused;

	ParsingListener(ServerCall.Listener<ReqT> service, ServerCall<InputStream, RespT> call,
			MethodDescriptor<ReqT, RespT> method) {
		this.service = service;
		this.call = call;
		this.method = method;
	}

	@Override
	public void onMessage(InputStream message) {
		if (this.refused) {
			return;
		}
		ReqT request;
		try {
			request = this.method.parseRequest(message);
		}
		catch (RuntimeException ex) {
			this.refused = true;
			closeQuietly(message);
			this.call.close(Status.INVALID_ARGUMENT.withDescription(describe()), new Metadata());
			return;
		}
		this.service.onMessage(request);
	}

	@Override
	public void onHalfClose() {
		if (!this.refused) {
			this.service.onHalfClose();
		}
	}

	@Override
	public void onCancel() {
		this.service.onCancel();
	}

	@Override
	public void onComplete() {
		if (this.refused) {
			this.service.onCancel();
		}
		else {
			this.service.onComplete();
		}
	}

	@Override
	public void onReady() {
		if (!this.refused) {
			this.service.onReady();
		}
	}

	private String describe() {
		String type = (this.method.getRequestMarshaller() instanceof MethodDescriptor.PrototypeMarshaller<?> marshaller
				&& marshaller.getMessagePrototype() instanceof Message prototype)
						? prototype.getDescriptorForType().getFullName() : "request";
		return "The request message is not a valid " + type + " (protobuf binary encoding expected)";
	}

	private static void closeQuietly(InputStream message) {
		try {
			message.close();
		}
		catch (IOException ex) {
			// nothing was kept
		}
	}

}
