package io.sluice.it.server;

import io.sluice.it.server.RocketMqServer.SendRequest;
import org.apache.rocketmq.common.AbortProcessException;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.RequestCode;
import org.apache.rocketmq.remoting.protocol.ResponseCode;
import org.apache.rocketmq.remoting.protocol.header.SendMessageRequestHeader;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Predicate;

/**
 * A broker hook that fails the send requests a rule picks, before the broker stores anything of
 * them: the client gets the error answer a failing broker gives ({@code SYSTEM_ERROR}). Runs on the
 * broker's request threads; installed on each broker start, so it survives a restart.
 */
final class SendRefusals implements RPCHook {

    private static final Predicate<SendRequest> NONE = send -> false;

    private volatile Predicate<SendRequest> rule = NONE;

    void refuse(Predicate<SendRequest> rule) {
        this.rule = rule == null ? NONE : rule;
    }

    @Override
    public void doBeforeRequest(String remoteAddr, RemotingCommand request) {
        Predicate<SendRequest> current = rule;
        if (current == NONE || !isSend(request.getCode())) {
            return;
        }
        SendRequest send;
        try {
            send = decode(request);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot decode a send request to check it", e);
        }
        if (current.test(send)) {
            throw new AbortProcessException(
                    ResponseCode.SYSTEM_ERROR,
                    "refused by the test: "
                            + send.messages().size()
                            + " messages to "
                            + send.topic()
                            + "/"
                            + send.queueId());
        }
    }

    @Override
    public void doAfterResponse(
            String remoteAddr, RemotingCommand request, RemotingCommand response) {}

    private static boolean isSend(int code) {
        return code == RequestCode.SEND_MESSAGE
                || code == RequestCode.SEND_MESSAGE_V2
                || code == RequestCode.SEND_BATCH_MESSAGE;
    }

    private static SendRequest decode(RemotingCommand request) throws Exception {
        SendMessageRequestHeader header = SendMessageRequestHeader.parseRequestHeader(request);
        List<Message> messages;
        if (request.getCode() == RequestCode.SEND_BATCH_MESSAGE || header.isBatch()) {
            messages = MessageDecoder.decodeMessages(ByteBuffer.wrap(request.getBody()));
        } else {
            // The body may be compressed; the rule needs the properties, which are not.
            Message message = new Message(header.getTopic(), request.getBody());
            MessageAccessor.setProperties(
                    message, MessageDecoder.string2messageProperties(header.getProperties()));
            messages = List.of(message);
        }
        return new SendRequest(header.getTopic(), header.getQueueId(), messages);
    }
}
