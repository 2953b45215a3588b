import {
  CheckCircleFilled,
  ClockCircleOutlined,
  MinusCircleOutlined,
  PauseCircleFilled,
  SyncOutlined,
} from '@ant-design/icons';
import dagre from '@dagrejs/dagre';
import {
  Background,
  Controls,
  Handle,
  Position,
  ReactFlow,
  type ReactFlowInstance,
  type Edge,
  type Node,
  type NodeProps,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { theme, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FlowNode, NodeState } from '../api/bpm';
import { useThemeMode } from '../theme';
import { treeToGraph, type GraphNode } from './tree';

const WIDTH = 200;
const HEIGHT = 84;

/** Who stands at a node: names (or ids) of the people who acted or must act there. */
export type PeopleByNode = Record<string, string[]>;

type DiagramNodeData = GraphNode & { people: string[] } & Record<string, unknown>;

const STATE_ICON: Record<NodeState, ReactNode> = {
  done: <CheckCircleFilled />,
  active: <SyncOutlined spin />,
  suspended: <PauseCircleFilled />,
  skipped: <MinusCircleOutlined />,
  pending: <ClockCircleOutlined />,
};

function DiagramNode({ data }: NodeProps<Node<DiagramNodeData>>) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const color: Record<NodeState, string> = {
    done: token.colorSuccess,
    active: token.colorPrimary,
    suspended: token.colorWarning,
    // Readable text (4.5:1) for every state; a skipped node also has a dashed border.
    skipped: token.colorTextSecondary,
    pending: token.colorTextSecondary,
  };
  const state = data.state;
  const isEnd = data.kind === 'end';
  // A branch deciding on a field hidden from the viewer comes without its name (the server's rule).
  const title = isEnd ? t('diagram.end') : (data.name ?? t('diagram.redacted'));
  return (
    <div
      data-testid={`diagram-node-${data.id}`}
      data-state={state ?? ''}
      style={{
        width: WIDTH,
        minHeight: isEnd ? 36 : HEIGHT - 8,
        padding: '6px 10px',
        borderRadius: 8,
        border: `2px ${state === 'skipped' ? 'dashed' : 'solid'} ${state ? color[state] : token.colorBorder}`,
        background: token.colorBgContainer,
        color: token.colorText,
        fontSize: 12,
      }}
    >
      <Handle type="target" position={Position.Top} style={{ visibility: 'hidden' }} />
      <div style={{ display: 'flex', justifyContent: 'space-between', gap: 4 }}>
        <Typography.Text strong ellipsis style={{ fontSize: 12 }}>
          {title}
        </Typography.Text>
        {!isEnd && (
          <Typography.Text type="secondary" style={{ fontSize: 11 }}>
            {t(`node.${data.kind}`)}
          </Typography.Text>
        )}
      </div>
      {state && (
        // The state in words and an icon, never by colour alone.
        <div style={{ color: color[state] }}>
          {STATE_ICON[state]}{' '}
          {data.kind === 'branch-arm' && (state === 'done' || state === 'skipped')
            ? t(state === 'done' ? 'diagram.taken' : 'diagram.notTaken')
            : t(`nodeState.${state}`)}
        </div>
      )}
      {data.people.length > 0 && (
        <Typography.Text type="secondary" ellipsis style={{ fontSize: 11, display: 'block' }}>
          {data.people.join(', ')}
        </Typography.Text>
      )}
      <Handle type="source" position={Position.Bottom} style={{ visibility: 'hidden' }} />
    </div>
  );
}

const nodeTypes = { step: DiagramNode };

/** Top-to-bottom layout by dagre: the route reads like the designer's vertical flow. */
function layout(
  tree: FlowNode,
  people: PeopleByNode,
): { nodes: Node<DiagramNodeData>[]; edges: Edge[] } {
  const graph = treeToGraph(tree);
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 36 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of graph.nodes)
    g.setNode(n.id, { width: WIDTH, height: n.kind === 'end' ? 40 : HEIGHT });
  for (const e of graph.edges) g.setEdge(e.source, e.target);
  dagre.layout(g);
  return {
    nodes: graph.nodes.map((n) => {
      const p = g.node(n.id);
      return {
        id: n.id,
        type: 'step',
        position: { x: p.x - WIDTH / 2, y: p.y - p.height / 2 },
        data: { ...n, people: people[n.id] ?? [] },
        draggable: false,
        connectable: false,
      };
    }),
    edges: graph.edges.map((e) => ({ ...e, type: 'smoothstep' })),
  };
}

export function RouteDiagram({
  tree,
  people = {},
  height = 480,
}: {
  tree: FlowNode;
  people?: PeopleByNode;
  height?: number;
}) {
  const { t } = useTranslation();
  const mode = useThemeMode();
  const { nodes, edges } = useMemo(() => layout(tree, people), [tree, people]);
  const box = useRef<HTMLDivElement>(null);
  const [flow, setFlow] = useState<ReactFlowInstance<Node<DiagramNodeData>> | null>(null);
  // Fitted again whenever the box changes size (a phone's narrow column settles after the
  // first fit), so the route is never left half outside its card.
  useEffect(() => {
    if (!flow || !box.current) return;
    const observer = new ResizeObserver(() => void flow.fitView());
    observer.observe(box.current);
    return () => observer.disconnect();
  }, [flow]);
  return (
    <div ref={box} style={{ height, width: '100%' }} role="figure" aria-label={t('diagram.label')}>
      <ReactFlow
        onInit={setFlow}
        colorMode={mode}
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        fitView
        nodesDraggable={false}
        nodesConnectable={false}
        proOptions={{ hideAttribution: true }}
        minZoom={0.2}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
