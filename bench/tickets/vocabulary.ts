// Words the generated data is made of. Message words are drawn with a Zipf-like law (word k about
// 1/k as often as the first), as in real chats: a few words everywhere, most words rare.

/** Most frequent first. */
export const messageWords = [...new Set(`
o de que a e não é para um com uma do da em os no na por favor obrigado bom dia boa tarde noite sim ok
pedido entrega produto preciso pode tudo bem olá oi ainda quando hoje amanhã agora meu minha seu sua
já mais como onde valor prazo pagamento boleto pix cartão nota fiscal código rastreio chegou chegar
aguardando atendimento atendente cliente cadastro endereço cep número telefone email senha conta
acesso sistema aplicativo site loja compra comprei paguei pago cancelar cancelamento troca trocar
devolução devolver reembolso estorno desconto cupom promoção frete grátis transportadora correios
enviado enviar envio retirada retirar estoque disponível indisponível tamanho cor modelo garantia
defeito quebrado danificado errado faltando problema resolver resolvido solução ajuda dúvida
informação informações confirmar confirmado confirmação agendar agendamento horário visita técnico
instalação manutenção suporte financeiro cobrança fatura vencimento atraso juros multa parcela
parcelamento segunda via comprovante transferência depósito recibo orçamento proposta contrato
plano assinatura mensalidade renovação upgrade migração portabilidade linha chip internet sinal
velocidade lenta caiu reiniciar roteador modem wifi fibra cabo aparelho celular notebook tela
bateria carregador fone teclado mouse impressora geladeira fogão máquina lavar ar condicionado
televisão sofá colchão mesa cadeira armário tênis camisa calça vestido bolsa relógio perfume
shampoo vitamina remédio receita consulta exame resultado clínica médico dentista farmácia
restaurante cardápio delivery lanche pizza hambúrguer bebida refrigerante cerveja sobremesa
reserva mesa evento festa aniversário casamento convite ingresso show viagem passagem hotel
voo bagagem embarque documento identidade cpf cnpj rg comprovante residência assinatura digital
urgente importante rápido demorado demora esperando esperar retorno retornar ligação ligar
mensagem áudio foto imagem vídeo arquivo anexo link print documento planilha relatório
gerente supervisor responsável setor departamento filial matriz unidade shopping centro
segunda terça quarta quinta sexta sábado domingo semana mês ano manhã tarde feriado
xilofone quindim jabuticaba pitanga caqui maracujá carambola graviola cupuaçu açaí
`
  .trim()
  .split(/\s+/))]

export const firstNames = `Maria José Ana João Antônio Francisco Carlos Paulo Pedro Lucas Luiz Marcos Luís Gabriel Rafael
Daniel Marcelo Bruno Eduardo Felipe Raimundo Rodrigo Manoel Mateus André Fernando Fábio Leonardo Gustavo Guilherme
Francisca Antônia Adriana Juliana Márcia Fernanda Patrícia Aline Sandra Camila Amanda Bruna Jéssica Letícia Júlia
Luciana Vanessa Mariana Gabriela Vera Vitória Larissa Cláudia Beatriz Luana Rita Sônia Renata Eliane Helena Yara`
  .trim()
  .split(/\s+/)

export const lastNames = `Silva Santos Oliveira Souza Rodrigues Ferreira Alves Pereira Lima Gomes Costa Ribeiro Martins
Carvalho Almeida Lopes Soares Fernandes Vieira Barbosa Rocha Dias Nascimento Andrade Moreira Nunes Marques Machado
Mendes Freitas Cardoso Ramos Gonçalves Santana Teixeira Araújo Correia Cavalcanti Monteiro Moraes Pinto Campos
Albuquerque Bezerra Batista Castro Reis Farias Medeiros Siqueira Brandão Figueiredo Tavares Queiroz Xavier Wanderley`
  .trim()
  .split(/\s+/)

export const queueNames = ['Vendas', 'Suporte', 'Financeiro', 'Cobrança', 'Pós-venda', 'Logística', 'Trocas e devoluções', 'Ouvidoria']

export const tagNames = [
  'Urgente', 'VIP', 'Reclamação', 'Orçamento', 'Novo cliente', 'Aguardando cliente', 'Aguardando pagamento', 'Troca',
  'Devolução', 'Elogio', 'Atacado', 'Varejo', 'Garantia', 'Agendado', 'Retorno', 'Primeira compra', 'Recorrente',
  'Inadimplente', 'Parceiro', 'Interno',
]
