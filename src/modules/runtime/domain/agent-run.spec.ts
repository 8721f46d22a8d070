import { describe, expect, it } from '@jest/globals';
import { AgentRun, AgentRunState, UNAVAILABLE_STEP } from 'src/modules/runtime/domain/agent-run';
import type { RunAction } from 'src/modules/runtime/domain/run-action';

let nextId = 0;

function action(step: number, status: RunAction['status'], approvalDeadline: Date | null = null): RunAction {
  nextId += 1;
  return {
    id: nextId,
    sId: `act_${nextId}`,
    workspaceId: 1,
    runId: 7,
    conversationId: 3,
    messageId: 5,
    step,
    toolCallId: `call_${nextId}`,
    functionCallName: 'vault__read',
    mcpServerName: 'vault',
    mcpServerId: 'mcp_vault',
    internalMcpServerName: null,
    toolName: 'read',
    params: {},
    status,
    output: null,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    executionDurationMs: null,
    approvalDeadline,
    approverId: approvalDeadline ? 9 : null,
  };
}

function run(
  actions: RunAction[],
  status: AgentRunState['status'] = 'running',
  stepTexts: AgentRunState['stepTexts'] = {},
): AgentRun {
  return new AgentRun({
    id: 7,
    workspaceId: 1,
    conversationId: 3,
    messageId: 5,
    userId: 9,
    status,
    runnerId: 'runner-a',
    heartbeatAt: new Date(0),
    actions,
    stepTexts,
  });
}

describe('AgentRun', () => {
  it('groups its calls into the model steps that asked for them, in order, leaving out the unavailable entries', () => {
    const first = action(0, 'succeeded');
    const second = action(1, 'succeeded');
    const third = action(1, 'failed');
    const recorded = run([action(UNAVAILABLE_STEP, 'failed'), first, second, third]);

    expect(recorded.steps).toEqual([
      { step: 0, actions: [first] },
      { step: 1, actions: [second, third] },
    ]);
    expect(recorded.nextStep).toBe(2);
    expect(run([action(UNAVAILABLE_STEP, 'failed')]).nextStep).toBe(0);
  });

  it("resumes past the text of its steps: what the message has beyond them is the cut step's", () => {
    const steps = [action(0, 'succeeded'), action(1, 'running')];
    const recorded = run(steps, 'running', { 0: 'Let me look. ', 1: 'Now the second. ' });

    expect(recorded.resumePoint('Let me look. Now the second. The answer is')).toEqual({
      stepTexts: ['Let me look. ', 'Now the second. '],
      cutText: 'The answer is',
    });
    expect(recorded.resumePoint('Let me look. Now the second. ').cutText).toBe('');
    expect(run([]).resumePoint('Half an ans')).toEqual({ stepTexts: [], cutText: 'Half an ans' });
  });

  it('continues nothing when a step has no text recorded or the content does not follow the steps', () => {
    expect(run([action(0, 'succeeded')]).resumePoint('Older run text').cutText).toBe('');
    expect(run([action(0, 'succeeded')], 'running', { 0: 'Mine. ' }).resumePoint('Other text').cutText).toBe(
      '',
    );
  });

  it('records the calls of a step: those that need approval wait for the member until the deadline', () => {
    const deadline = new Date(60_000);
    const calls = AgentRun.stepCalls(
      { id: 7, workspaceId: 1 },
      2,
      [
        {
          toolCallId: 'call_a',
          functionCallName: 'vault__read',
          mcpServerName: 'vault',
          mcpServerId: 'mcp_vault',
          internalMcpServerName: null,
          toolName: 'read',
          params: { id: 'r-1' },
          needsApproval: false,
        },
        {
          toolCallId: 'call_b',
          functionCallName: 'vault__delete',
          mcpServerName: 'vault',
          mcpServerId: 'mcp_vault',
          internalMcpServerName: null,
          toolName: 'delete',
          params: { id: 'r-1' },
          needsApproval: true,
        },
      ],
      { approverId: 9, deadline },
    );

    expect(calls).toEqual([
      expect.objectContaining({ step: 2, status: 'running', approverId: null, approvalDeadline: null }),
      expect.objectContaining({
        step: 2,
        status: 'blocked_validation_required',
        approverId: 9,
        approvalDeadline: deadline,
      }),
    ]);
    expect(new Set(calls.map((call) => call.sId)).size).toBe(2);
  });

  it('says why an entry of the toolset offers nothing, as a failed call before the first step', () => {
    const [call] = AgentRun.unavailableCalls({ id: 7, workspaceId: 1 }, [
      { name: 'crm tools', reason: 'not shared to a space you can access' },
    ]);

    expect(call).toMatchObject({
      step: UNAVAILABLE_STEP,
      functionCallName: 'crm_tools',
      status: 'failed',
      output: [{ type: 'text', text: 'Not offered to this run: not shared to a space you can access' }],
    });
  });
});
